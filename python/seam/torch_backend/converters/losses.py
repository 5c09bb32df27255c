"""nll_loss forward and backward, for graphs that keep the ops (AOT autograd's graphs decompose them:
loss_decompositions.py, the same math). The target's class is picked by comparing the class index with
the target inside the row (a where and a sum over the row, which seam's row kernels compute next to the
log-sum-exp) rather than by a gather: no index check to wait for, and no [rows, classes] value written
for a gather to read. A target outside the classes that is not `ignore_index` (an error in eager) makes
its row's loss NaN. Class weights are picked the same way."""

import torch

from ...dtypes import DataType
from ..node_meta import tensor_info
from ..registry import converter

_NONE, _MEAN, _SUM = 0, 1, 2


def _nll_ok(node, settings):
    first = 0 if "forward" in str(node.target) else 1  # the backward takes grad_output first
    x, target, weight = (tensor_info(node.args[first + i]) if node.args[first + i] is not None else None
                         for i in range(3))
    if x is None or target is None or x.rank != 2 or target.rank != 1:
        return "needs [N, C] scores and an [N] target"
    if not x.dtype.is_floating_point or target.dtype not in (torch.int64, torch.int32):
        return "needs floating scores and an integer target"
    if node.args[first + 2] is not None and (weight is None or weight.rank != 1 or weight.shape[0] != x.shape[1]):
        return "class weights of another shape than [C]"
    return True


def _hit(ctx, scores, target):
    """hit[n, c] = (c == target[n]): a compare inside the kernel, never a tensor."""
    ops = ctx.ops
    classes = ops.iota(ops.size(scores, 1), 0, 1, DataType.Int)
    column = ops.broadcast(ctx.cast(target, torch.int64), [False, True])
    return ops.eq(ops.broadcast(classes, [True, False]), column)


def _row_weight(ctx, weight, hit, valid):
    """Per row: the target's class weight (0 where ignored); 1 for counted rows without weights."""
    ops = ctx.ops
    if weight is None:
        return ctx.cast(valid, torch.float32)
    picked = ops.sum(ops.where(hit, ops.broadcast(ctx.to_float(weight), [True, False]), 0.0), [1], False)
    return ops.where(valid, picked, 0.0)


@converter("aten.nll_loss_forward.default", supports=_nll_ok)
def nll_loss_forward(ctx, scores, target, weight, reduction, ignore_index):
    ops = ctx.ops
    scores = ctx.to_float(scores)
    hit = _hit(ctx, scores, target)
    picked = ops.sum(ops.where(hit, scores, 0.0), [1], False)
    valid = ops.ne(target, int(ignore_index))
    row_weight = _row_weight(ctx, weight, hit, valid)
    classes = ops.size(scores, 1)
    out_of_range = ops.bitwise_and(valid, ops.bitwise_or(ops.lt(target, 0), ops.ge(target, classes)))
    losses = ops.where(out_of_range, float("nan"), ops.neg(ops.mul(picked, row_weight)))
    if reduction == _NONE:
        return losses, ops.full([], 0.0, DataType.Float)
    total_weight = ops.sum(row_weight, [0], False)
    total = ops.sum(losses, [0], False)
    return (ops.truediv(total, total_weight) if reduction == _MEAN else total), total_weight


@converter("aten.nll_loss_backward.default", supports=_nll_ok)
def nll_loss_backward(ctx, grad_output, scores, target, weight, reduction, ignore_index, total_weight):
    ops = ctx.ops
    grad = ctx.to_float(grad_output)
    if reduction == _MEAN:
        grad = ops.truediv(grad, ctx.to_float(total_weight))
    if reduction == _NONE:
        grad = ops.broadcast(grad, [False, True])
    coefficient = ops.neg(grad)
    if weight is not None:
        coefficient = ops.mul(coefficient, ops.broadcast(ctx.to_float(weight), [True, False]))
    valid = ops.broadcast(ops.ne(target, int(ignore_index)), [False, True])
    hit = ops.bitwise_and(_hit(ctx, scores, target), valid)
    return ops.where(hit, coefficient, 0.0)
