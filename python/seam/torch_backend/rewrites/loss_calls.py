"""Cross-entropy calls as the torch-level graph records them: `F.cross_entropy`, or
`torch._C._nn.cross_entropy_loss` (the call Dynamo records inside F.cross_entropy), with their arguments
bound by name."""

import torch
import torch.nn.functional as F

_CE_PARAMETERS = ("input", "target", "weight", "size_average", "ignore_index", "reduce", "reduction",
                  "label_smoothing")
_CE_LOSS_PARAMETERS = ("input", "target", "weight", "reduction", "ignore_index", "label_smoothing")
_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}  # torch's enum in cross_entropy_loss


def bound_arguments(node, parameters):
    bound = dict(zip(parameters, node.args))
    bound.update(node.kwargs)
    return bound


def plain_cross_entropy(node, reductions=("none", "mean", "sum")):
    """(scores node, target node, ignore_index, reduction) of a cross-entropy call without class weights
    or label smoothing whose reduction is one of `reductions`, or None."""
    if node.op != "call_function":
        return None
    if node.target is F.cross_entropy:
        b = bound_arguments(node, _CE_PARAMETERS)
        if b.get("size_average") is not None or b.get("reduce") is not None:
            return None
        reduction = b.get("reduction", "mean")
    elif node.target is getattr(torch._C._nn, "cross_entropy_loss", None):
        b = bound_arguments(node, _CE_LOSS_PARAMETERS)
        reduction = _REDUCTIONS.get(b.get("reduction", 1))
    else:
        return None
    if b.get("weight") is not None or b.get("label_smoothing", 0.0) not in (0, 0.0) or reduction not in reductions:
        return None
    ignore_index = b.get("ignore_index", -100)
    if not isinstance(ignore_index, int) or not isinstance(b.get("input"), torch.fx.Node) or \
            not isinstance(b.get("target"), torch.fx.Node):
        return None
    return b["input"], b["target"], ignore_index, reduction
