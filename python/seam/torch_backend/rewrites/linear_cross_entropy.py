"""A language model's lm_head followed by cross-entropy, `cross_entropy(linear(h, W).float().view(-1, V),
target)`, routed to seam's fused linear + cross-entropy (fused_linear_cross_entropy.py: chunked products
and seam's cross-entropy row kernel; no [rows, vocab] f32 logits, log-softmax or gradient, nothing of that
size saved for the backward).

Runs on the torch-level graph a backend receives (Dynamo's, before AOT autograd; torch.fx's
symbolic_trace gives the same kind), where the loss is still one call. Matched: `F.cross_entropy` or
`torch._C._nn.cross_entropy_loss` (the call Dynamo records inside F.cross_entropy) without class weights
or label smoothing, reduction mean or sum, whose input is, through an upcast to float32 and a view to
[rows, V], the output of an lm_head without bias (`nn.Linear`, `F.linear` / `torch._C._nn.linear`).
The vocabulary V and hidden size must be known (the module's, or the traced shape of the weight) so that
the view is proven to flatten the rows. Anything else is left as written.

The logits of a model that also returns them (HF's CausalLMOutput does) are still computed, by the
original product, for that output: the rewrite then saves the f32 logits copy, the log-softmax, the
gradient and what is saved for the backward, but not the bf16 logits themselves (docs/TORCH_BACKEND.md)."""

import torch
import torch.nn.functional as F

from ..fused_linear_cross_entropy import linear_cross_entropy_call
from .loss_calls import bound_arguments, plain_cross_entropy
from .traced import traced_dtype, traced_shape

def _lm_head(gm, node):
    """(hidden node, weight node or the module's attribute path, vocab, hidden size, weight dtype) of a
    linear without bias, or None."""
    if node.op == "call_module":
        module = gm.get_submodule(node.target)
        if type(module) is torch.nn.Linear and module.bias is None and len(node.args) == 1 and not node.kwargs:
            return node.args[0], f"{node.target}.weight", module.out_features, module.in_features, \
                module.weight.dtype
        return None
    if node.op == "call_function" and node.target in (F.linear, getattr(torch._C._nn, "linear", None)):
        b = bound_arguments(node, ("input", "weight", "bias"))
        weight = b.get("weight")
        shape = traced_shape(weight) if isinstance(weight, torch.fx.Node) else None
        if b.get("bias") is None and shape is not None and len(shape) == 2:
            return b["input"], weight, shape[0], shape[1], traced_dtype(weight)
    return None


def _upcast(node):
    if node.op != "call_method":
        return False
    if node.target == "float" and len(node.args) == 1:
        return True
    return node.target == "to" and (node.args[1:] == (torch.float32,) or node.kwargs == {"dtype": torch.float32})


def _flattens_rows(node, vocab):
    """A view/reshape to [-1, vocab] (or [rows, vocab] with rows an int)."""
    if node.op == "call_method" and node.target in ("view", "reshape"):
        shape = node.args[1:]
    elif node.op == "call_function" and node.target is torch.reshape:
        shape = node.args[1:2]
    else:
        return False
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return len(shape) == 2 and isinstance(shape[0], int) and shape[1] == vocab


def _match(gm, loss):
    call = plain_cross_entropy(loss, reductions=("mean", "sum"))
    if call is None:
        return None
    logits, target, ignore_index, reduction = call
    chain, upcast, node = [], False, logits
    head = None
    while isinstance(node, torch.fx.Node):
        head = _lm_head(gm, node)
        if head is not None:
            break
        if len(node.users) != 1 or not (_upcast(node) or node.op in ("call_method", "call_function")):
            return None
        chain.append(node)
        upcast = upcast or _upcast(node)
        node = node.args[0] if node.args else None
    if head is None:
        return None
    hidden, weight, vocab, hidden_size, weight_dtype = head
    for n in chain:
        if not (_upcast(n) or _flattens_rows(n, vocab)):
            return None
    if not upcast and weight_dtype != torch.float32:
        return None  # eager's loss would be in the logits' dtype
    return hidden, weight, hidden_size, target, ignore_index, reduction, chain


def rewrite_linear_cross_entropy(gm):
    """Routes each lm_head + cross-entropy of `gm` to the fused op, in place; returns how many."""
    graph = gm.graph
    count = 0
    for loss in list(graph.nodes):
        found = _match(gm, loss)
        if found is None:
            continue
        hidden, weight, hidden_size, target, ignore_index, reduction, chain = found
        with graph.inserting_before(loss):
            if isinstance(weight, str):
                weight = graph.get_attr(weight)
            rows = graph.call_function(torch.reshape, (hidden, (-1, hidden_size)))
            labels = graph.call_function(torch.reshape, (target, (-1,)))
            fused = graph.call_function(linear_cross_entropy_call, (rows, weight, labels, ignore_index, reduction))
        loss.replace_all_uses_with(fused)
        graph.erase_node(loss)
        for node in chain:  # the upcast and view of the logits, now unused
            if not node.users:
                graph.erase_node(node)
        count += 1
    return count

