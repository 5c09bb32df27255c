"""Tensors made from numbers: scalar_tensor, full, arange (as seam's full and iota)."""

import math

import torch

from ...dtypes import torch_to_datatype
from ..node_meta import tensor_info
from ..registry import converter


def _out_dtype(ctx):
    return torch_to_datatype(tensor_info(ctx.node).dtype)


def _number_args(*positions):
    def check(node, settings):
        values = [node.args[p] for p in positions if p < len(node.args)]
        return all(isinstance(v, (int, float, bool)) for v in values) or "needs number arguments"

    return check


@converter("aten.scalar_tensor.default", supports=_number_args(0), compute=False)
def scalar_tensor(ctx, value, **kwargs):
    return ctx.ops.full([], value, _out_dtype(ctx))


@converter("aten.full.default", supports=_number_args(1), compute=False)
def full(ctx, size, fill_value, **kwargs):
    return ctx.ops.full([int(s) for s in size], fill_value, _out_dtype(ctx))


def _arange_ok(node, settings):
    info = tensor_info(node)
    if info is None or info.dtype not in (torch.int64, torch.int32, torch.float32, torch.float64):
        return "an arange of another dtype"
    return _number_args(0, 1, 2)(node, settings)


def _arange(ctx, start, end, step):
    length = max(0, math.ceil((end - start) / step))
    return ctx.ops.iota(length, start, step, _out_dtype(ctx))


@converter("aten.arange.default", supports=_arange_ok, compute=False)
def arange(ctx, end, **kwargs):
    return _arange(ctx, 0, end, 1)


@converter("aten.arange.start", supports=_arange_ok, compute=False)
def arange_start(ctx, start, end, **kwargs):
    return _arange(ctx, start, end, 1)


@converter("aten.arange.start_step", supports=_arange_ok, compute=False)
def arange_start_step(ctx, start, end, step=1, **kwargs):
    return _arange(ctx, start, end, step)


@converter("aten.zeros.default", "aten.ones.default", supports=lambda n, s: all(
    isinstance(v, int) for v in n.args[0]) or "needs int sizes", compute=False)
def zeros_ones(ctx, size, **kwargs):
    value = 1 if "ones" in str(ctx.node.target) else 0
    return ctx.ops.full([int(s) for s in size], value, _out_dtype(ctx))


def _like_ok(node, settings):
    if node.kwargs.get("memory_format") not in (None, torch.preserve_format, torch.contiguous_format):
        return "a memory format other than contiguous"
    return "full_like" not in str(node.target) or _number_args(1)(node, settings)


def _like(value):
    def convert(ctx, x, *args, **kwargs):
        fill = args[0] if value is None else value
        return ctx.ops.full(x.shape(), fill, _out_dtype(ctx))  # extents as the specialization has them

    return convert


# empty_like's values are unspecified; zeros are as good as any.
converter("aten.zeros_like.default", "aten.empty_like.default", supports=_like_ok, compute=False)(_like(0))
converter("aten.ones_like.default", supports=_like_ok, compute=False)(_like(1))
converter("aten.full_like.default", supports=_like_ok, compute=False)(_like(None))


def _fill_ok(node, settings):
    return isinstance(node.args[1], (int, float, bool)) or "needs a number"


@converter("aten.fill.Scalar", supports=_fill_ok, compute=False)
def fill(ctx, x, value):
    return ctx.ops.full(x.shape(), value, _out_dtype(ctx))


def _triangle_ok(node, settings):
    info = tensor_info(node.args[0])
    return info is not None and info.rank >= 2 or "needs a matrix"


def _triangle(upper):
    def convert(ctx, x, diagonal=0):
        ops = ctx.ops
        rows = ops.broadcast(ops.iota(ops.size(x, -2), 0, 1, torch_to_datatype(torch.int64)), [False, True])
        cols = ops.broadcast(ops.iota(ops.size(x, -1), 0, 1, torch_to_datatype(torch.int64)), [True, False])
        offset = ops.sub(cols, rows)
        keep = ops.ge(offset, int(diagonal)) if upper else ops.le(offset, int(diagonal))
        return ops.where(keep, x, False if ctx.dtype(x) == torch.bool else 0)

    return convert


converter("aten.tril.default", supports=_triangle_ok)(_triangle(False))
converter("aten.triu.default", supports=_triangle_ok)(_triangle(True))
