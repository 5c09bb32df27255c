"""Attention at eager's speed: where a model calls scaled_dot_product_attention with a boolean mask that
the graph proves is exactly the causal triangle, the call gets is_causal=True and no mask, and where its
keys and values are a plain repeat of fewer heads (grouped-query attention), the unrepeated ones with
enable_gqa=True (torch >= 2.5). Models do this under torch.compile because HF transformers cannot skip
the mask while tracing; with a mask, SDPA runs its masked kernels, several times slower than the causal
ones eager runs.

The rewrite runs on Dynamo's graph, before AOT autograd, so that the forward and the backward are both
derived from the rewritten call. A mask that is not provably the causal triangle (a padding mask read
from an input, a sliding window, another diagonal, a transposed triangle, a size that is not an int) is
left alone, as is every call with dropout's attention weights asked for."""

import logging

import torch
import torch.nn.functional as F

from . import index_algebra as ia
from .mask_graph import MaskReader, is_causal_mask
from .traced import traced_shape

log = logging.getLogger("seam.torch_backend")

# Parameter names of the SDPA functions a graph may call, in positional order.
_SDPA_PARAMETERS = ("query", "key", "value", "attn_mask", "dropout_p", "is_causal", "scale", "enable_gqa")
_OLD_SDPA_PARAMETERS = ("query", "key", "value", "attn_mask", "dropout_p", "need_attn_weights", "is_causal")


def _sdpa_targets():
    """target -> parameter names: torch 2's F.scaled_dot_product_attention (Dynamo records it as
    called) and torch 1.13's private F._scaled_dot_product_attention."""
    targets = {}
    sdpa = getattr(F, "scaled_dot_product_attention", None)
    if sdpa is not None:
        targets[sdpa] = _SDPA_PARAMETERS
    old = getattr(F, "_scaled_dot_product_attention", None)
    if old is not None:
        targets[old] = _OLD_SDPA_PARAMETERS
    return targets


def torch_has_gqa():
    """SDPA's enable_gqa (torch 2.5)."""
    try:
        major, minor = (int(p) for p in torch.__version__.split(".")[:2])
    except ValueError:
        return False
    return (major, minor) >= (2, 5)


def _bound(node, parameters):
    """The call's arguments by parameter name (absent: not given)."""
    bound = dict(zip(parameters, node.args))
    bound.update(node.kwargs)
    return bound


def plain_head_repeat(node):
    """(the unrepeated tensor, repeats) where `node` is x [B, H, S, D] with each of its H heads repeated
    `repeats` times in a row (head h of the result is head h // repeats of x), as HF's repeat_kv builds it
    (x[:, :, None].expand(B, H, n, S, D).reshape(B, H * n, S, D)) or repeat_interleave(x, n, dim=1);
    None otherwise. Needs the traced shapes (Dynamo's example values)."""
    name = ia.op_name(node)
    if name == "repeat_interleave":
        x = node.args[0]
        repeats = node.args[1] if len(node.args) > 1 else node.kwargs.get("repeats")
        dim = node.args[2] if len(node.args) > 2 else node.kwargs.get("dim")
        shape = traced_shape(x) if isinstance(x, torch.fx.Node) else None
        if shape and len(shape) == 4 and isinstance(repeats, int) and repeats > 1 and dim in (1, -3):
            return x, repeats
        return None
    if name not in ("reshape", "view", "_unsafe_view") or not node.args:
        return None
    expanded = node.args[0]
    if not isinstance(expanded, torch.fx.Node) or ia.op_name(expanded) != "expand":
        return None
    inserted = expanded.args[0]
    if not isinstance(inserted, torch.fx.Node):
        return None
    inserted_name = ia.op_name(inserted)
    if inserted_name == "getitem":
        key = inserted.args[1]
        whole = slice(None, None, None)
        if not (isinstance(key, tuple) and len(key) in (3, 5) and key[:2] == (whole, whole) and key[2] is None
                and all(k == whole for k in key[3:])):
            return None
    elif inserted_name == "unsqueeze":
        if tuple(inserted.args[1:]) not in ((2,), (-3,)):
            return None
    else:
        return None
    x = inserted.args[0]
    shape = traced_shape(x) if isinstance(x, torch.fx.Node) else None
    if shape is None or len(shape) != 4:
        return None
    sizes = list(expanded.args[1:])
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = list(sizes[0])
    target = list(node.args[1:])
    if len(target) == 1 and isinstance(target[0], (tuple, list)):
        target = list(target[0])
    if len(sizes) != 5 or not all(isinstance(s, int) for s in sizes + target) or len(target) != 4:
        return None
    b, h, s, d = shape
    repeats = sizes[2]
    if [sizes[i] if sizes[i] != -1 else (b, h, None, s, d)[i] for i in (0, 1, 3, 4)] != [b, h, s, d]:
        return None
    if repeats < 1 or target != [b, h * repeats, s, d]:
        return None
    return x, repeats


class _Rewrite:
    def __init__(self, gm, unrepeated_kv):
        self.gm = gm
        self.unrepeated_kv = unrepeated_kv
        self.reader = MaskReader()
        self.targets = _sdpa_targets()
        self.count = 0

    def run(self):
        for node in list(self.gm.graph.nodes):
            if node.op == "call_function" and node.target in self.targets:
                self._attention(node, self.targets[node.target])
        return self.count

    def _attention(self, node, parameters):
        bound = _bound(node, parameters)
        mask = bound.get("attn_mask")
        if bound.get("need_attn_weights") or bound.get("is_causal"):
            return
        if isinstance(mask, torch.fx.Node):
            value = self.reader.read(mask)
            if not is_causal_mask(value):
                log.debug("seam: %s keeps its mask %s: not provably the causal triangle", node.name, mask.name)
                return
        elif mask is not None:
            return
        changed = mask is not None
        bound["attn_mask"] = None
        if mask is not None:
            bound["is_causal"] = True
        if self.unrepeated_kv and "enable_gqa" in parameters and torch_has_gqa() and not bound.get("enable_gqa"):
            keys, values = plain_head_repeat(bound["key"]), plain_head_repeat(bound["value"])
            if keys is not None and values is not None and keys[1] == values[1]:
                bound["key"], bound["value"], bound["enable_gqa"] = keys[0], values[0], True
                changed = True
        if not changed:
            return
        positional = tuple(bound.pop(p) for p in parameters[:3])
        node.args = positional
        node.kwargs = {k: v for k, v in bound.items() if not (k == "attn_mask" and v is None)}
        self.count += 1
        log.debug("seam: %s: %s", node.name, node.format_node())


def _remove_dead(graph):
    """Nodes left without readers by the rewrite: the mask's and the repeat's (pure ops; in-place ones only
    on values nothing else reads, which the mask reader checked)."""
    removable = ("call_function", "call_method")
    changed = True
    while changed:
        changed = False
        for node in reversed(list(graph.nodes)):
            if node.op in removable and not node.users and ia.op_name(node) is not None and \
                    node.meta.get("seam_mask_input"):
                graph.erase_node(node)
                changed = True


def _mark_inputs(gm, nodes):
    """Marks the nodes that only computed a mask or a repeat the rewrite dropped."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if not isinstance(node, torch.fx.Node) or node.op not in ("call_function", "call_method"):
            continue
        if node.meta.get("seam_mask_input"):
            continue
        node.meta["seam_mask_input"] = True
        stack.extend(node.all_input_nodes)


def rewrite_causal_attention(gm, unrepeated_kv=True):
    """Rewrites gm's SDPA calls in place (see the module's doc); the number of calls changed.
    `unrepeated_kv`: keys and values repeating KV heads passed unrepeated (enable_gqa)."""
    rewrite = _Rewrite(gm, unrepeated_kv)
    before = {n: (n.args, dict(n.kwargs)) for n in gm.graph.nodes
              if n.op == "call_function" and n.target in rewrite.targets}
    count = rewrite.run()
    if count:
        dropped = []
        for node, (args, kwargs) in before.items():
            old = set(a for a in list(args) + list(kwargs.values()) if isinstance(a, torch.fx.Node))
            dropped += [a for a in old if a not in node.all_input_nodes]
        _mark_inputs(gm, dropped)
        _remove_dead(gm.graph)
        for node in gm.graph.nodes:
            node.meta.pop("seam_mask_input", None)
    return count
