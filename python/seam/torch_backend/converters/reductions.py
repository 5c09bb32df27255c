"""Reductions, softmax and its backward. Sums accumulate in Float for Half/BFloat16 inputs (PyTorch's
accumulation type) and round once at the end."""

import torch

from ..node_meta import tensor_info
from ..registry import converter
from ._checks import floating_inputs, kwarg


def _dims(ctx, x, dims):
    rank = ctx.rank(x)
    if dims is None or len(dims) == 0:  # aten: an empty dim list reduces every dim
        return list(range(rank))
    return sorted({ctx.axis(int(d), rank) for d in dims})


def _accumulate(ctx, x):
    dtype = ctx.dtype(x)
    if dtype in (torch.float16, torch.bfloat16):
        return ctx.cast(x, torch.float32)
    if dtype in (torch.bool, torch.int32):
        return ctx.cast(x, torch.int64)
    return x


def _sum(ctx, x, dims, keepdim, dtype):
    if dtype is not None:
        x = ctx.cast(x, dtype)
    axes = _dims(ctx, x, dims)
    x = _accumulate(ctx, x)
    return ctx.ops.sum(x, axes, bool(keepdim)) if axes else x


@converter("aten.sum.dim_IntList")
def sum_dims(ctx, x, dims, keepdim=False, dtype=None):
    return _sum(ctx, x, dims, keepdim, dtype)


@converter("aten.sum.default")
def sum_all(ctx, x, dtype=None):
    return _sum(ctx, x, None, False, dtype)


def _mean_ok(node, settings):
    dtype = kwarg(node, "dtype", 3)
    info = tensor_info(node.args[0])
    return (dtype is not None and dtype.is_floating_point) or (info is not None and info.dtype.is_floating_point) \
        or "mean of an integer tensor"


@converter("aten.mean.dim", supports=_mean_ok)
def mean_dims(ctx, x, dims, keepdim=False, dtype=None):
    if dtype is not None:
        x = ctx.cast(x, dtype)
    axes = _dims(ctx, x, dims)
    return ctx.ops.mean(ctx.to_float(x), axes, bool(keepdim)) if axes else x


@converter("aten.mean.default", supports=_mean_ok)
def mean_all(ctx, x, dtype=None):
    return mean_dims(ctx, x, None, False, dtype)


def _extreme(fd_name):
    def convert(ctx, x, dims=(), keepdim=False):
        axes = _dims(ctx, x, dims)
        return getattr(ctx.ops, fd_name)(x, axes, bool(keepdim)) if axes else x

    return convert


converter("aten.amax.default")(_extreme("max"))
converter("aten.amin.default")(_extreme("min"))


# --- softmax family ---------------------------------------------------------------------------------

def _softmax_parts(ctx, x, dim):
    """Float x, the shifted values x - max and exp of them, over `dim` (kept)."""
    x = ctx.to_float(x)
    axis = ctx.axis(dim, ctx.rank(x))
    if ctx.rank(x) == 0:
        return x, axis, ctx.ops.sub(x, x)
    shifted = ctx.ops.sub(x, ctx.ops.max(x, [axis], True))
    return x, axis, shifted


@converter("aten._softmax.default", supports=floating_inputs)
def softmax(ctx, x, dim, half_to_float=False):
    x, axis, shifted = _softmax_parts(ctx, x, dim)
    e = ctx.ops.exp(shifted)
    return ctx.ops.truediv(e, ctx.ops.sum(e, [axis], True)) if ctx.rank(x) else ctx.ops.exp(shifted)


@converter("aten._log_softmax.default", supports=floating_inputs)
def log_softmax(ctx, x, dim, half_to_float=False):
    x, axis, shifted = _softmax_parts(ctx, x, dim)
    if not ctx.rank(x):
        return shifted
    return ctx.ops.sub(shifted, ctx.ops.log(ctx.ops.sum(ctx.ops.exp(shifted), [axis], True)))


@converter("aten._softmax_backward_data.default", supports=floating_inputs)
def softmax_backward(ctx, grad, output, dim, input_dtype):
    grad, output = ctx.to_float(grad), ctx.to_float(output)
    axis = ctx.axis(dim, ctx.rank(grad))
    dot = ctx.ops.sum(ctx.ops.mul(grad, output), [axis], True)
    return ctx.ops.mul(output, ctx.ops.sub(grad, dot))


@converter("aten._log_softmax_backward_data.default", supports=floating_inputs)
def log_softmax_backward(ctx, grad, output, dim, input_dtype):
    grad, output = ctx.to_float(grad), ctx.to_float(output)
    axis = ctx.axis(dim, ctx.rank(grad))
    total = ctx.ops.sum(grad, [axis], True)
    return ctx.ops.sub(grad, ctx.ops.mul(ctx.ops.exp(output), total))
