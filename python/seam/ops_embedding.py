"""fd.ops.embedding_fwd as a composition of seam's ops: the rows of `weight` that `input` names, gathered
with index_select (out shape input.shape + [embedding_dim]). With max_norm, each gathered row whose
norm_type-norm exceeds max_norm is scaled to max_norm / (norm + 1e-7), as PyTorch's embedding_renorm_
scales it; the weight itself is not updated in place (PyTorch's eager embedding also rewrites those rows
of weight). padding_idx, scale_grad_by_freq and sparse change only gradients, so the forward ignores
them."""

import math

from . import dtypes
from .ops import tensor_of
from .op_table import OpTable

table = OpTable()
op = table.op


def _embedding_out(input, weight, padding_idx=None, max_norm=None, norm_type=None, scale_grad_by_freq=None,
                   sparse=None):
    return tensor_of(input.ndim + 1)


@op("embedding_fwd", _embedding_out)
def _embedding_fwd(ctx, input, weight, padding_idx=None, max_norm=None, norm_type=None, scale_grad_by_freq=None,
                   sparse=None):
    index = ctx.tensor(input, "input")
    table = ctx.tensor(weight, "weight")
    if index.dtype not in dtypes.INTEGER:
        raise ctx.error(f"embedding_fwd: input must hold integer indices, got {index.dtype}")
    if table.rank != 2:
        raise ctx.error(f"embedding_fwd: weight must have rank 2 (rows, embedding_dim), got {list(table.shape)}")
    flat = ctx.reshape(index, [math.prod(index.shape)])
    rows = ctx.op("index_select", [table, flat], [("axis", 0)])
    if max_norm is not None:
        rows = _renormalized(ctx, rows, max_norm, 2.0 if norm_type is None else norm_type)
    return ctx.reshape(rows, list(index.shape) + [table.shape[1]])


def _renormalized(ctx, rows, max_norm, norm_type):
    x = ctx.cast(rows, "f32") if rows.dtype in dtypes.HALF else rows
    powered = ctx.arith("pow", [ctx.pointwise("abs", [x]), norm_type])
    norm = ctx.arith("pow", [ctx.op("sum", [powered], [("axes", [1]), ("keepdim", True)]),
                             ctx.arith("div", [1.0, norm_type])])
    scale = ctx.arith("div", [max_norm, ctx.arith("add", [norm, 1e-7])])
    scale = ctx.pointwise("where", ctx.broadcast_all([ctx.pointwise("gt", [norm, max_norm]), scale, 1.0]))
    scaled = ctx.arith("mul", ctx.broadcast_all([x, scale]))
    return ctx.cast(scaled, rows.dtype)
