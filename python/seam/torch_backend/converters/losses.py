"""nll_loss forward and backward. The target's class is picked by comparing it with an iota over the
classes (a masked row reduction) rather than by a gather: no index check, so no wait on the device."""

import torch

from ...dtypes import DataType
from ..node_meta import tensor_info
from ..registry import converter

_NONE, _MEAN, _SUM = 0, 1, 2


def _nll_ok(node, settings):
    first = 0 if "forward" in str(node.target) else 1  # the backward takes grad_output first
    x, target, weight = tensor_info(node.args[first]), tensor_info(node.args[first + 1]), node.args[first + 2]
    if weight is not None:
        return "class weights"
    if x is None or target is None or x.rank != 2 or target.rank != 1:
        return "needs [N, C] scores and an [N] target"
    if not x.dtype.is_floating_point or target.dtype not in (torch.int64, torch.int32):
        return "needs floating scores and an integer target"
    return True


def _picked(ctx, scores, target):
    """mask[n, c] = (c == target[n]), and whether target[n] is counted."""
    ops = ctx.ops
    classes = ops.iota(ops.size(scores, 1), 0, 1, DataType.Int)
    column = ops.broadcast(ctx.cast(target, torch.int64), [False, True])
    return ops.eq(ops.broadcast(classes, [True, False]), column)


@converter("aten.nll_loss_forward.default", supports=_nll_ok)
def nll_loss_forward(ctx, scores, target, weight, reduction, ignore_index):
    ops = ctx.ops
    scores = ctx.to_float(scores)
    hit = _picked(ctx, scores, target)
    picked = ops.sum(ops.where(hit, scores, 0.0), [1], False)
    valid = ops.ne(target, int(ignore_index))
    losses = ops.where(valid, ops.neg(picked), 0.0)
    counted = ops.sum(ctx.cast(valid, torch.float32), [0], False)
    if reduction == _NONE:
        return losses, ops.full([], 0.0, DataType.Float)
    total = ops.sum(losses, [0], False)
    return (ops.truediv(total, counted) if reduction == _MEAN else total), counted


@converter("aten.nll_loss_backward.default", supports=_nll_ok)
def nll_loss_backward(ctx, grad_output, scores, target, weight, reduction, ignore_index, total_weight):
    ops = ctx.ops
    grad = ctx.to_float(grad_output)
    if reduction == _MEAN:
        grad = ops.truediv(grad, ctx.to_float(total_weight))
    if reduction == _NONE:
        grad = ops.broadcast(grad, [False, True])
    valid = ops.broadcast(ops.ne(target, int(ignore_index)), [False, True])
    hit = ops.logical_and(_picked(ctx, scores, target), valid)
    return ops.where(hit, ops.neg(grad), 0.0)
