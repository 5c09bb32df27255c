"""PyTorch's scans along one dim as seam's scan ops, which follow torch's dtypes: cumsum and cumprod of
integers and bools in int64, Half/BFloat16 from a Float running value with each output rounded; cummax
and cummin in the input's dtype, a NaN once seen staying. cummax/cummin also return the indices of the
extrema, which seam does not compute: seam takes them only where nothing reads the indices."""

import operator

import torch

from ..node_meta import tensor_info
from ..registry import converter
from ._checks import kwarg


def _dim_ok(node):
    dim = kwarg(node, "dim", 1)
    if isinstance(dim, bool) or not isinstance(dim, int):
        return f"the dim must be a Python int, got {type(dim).__name__}"
    return True


def _sum_or_product_ok(node, settings):
    out = tensor_info(node)
    if out is not None and out.dtype == torch.bool:  # dtype=torch.bool: no bool sum or product in seam
        return "a running sum or product in bool"
    return _dim_ok(node)


def _values_only_ok(node, settings):
    for user in node.users:  # an unread getitem of the indices (make_fx traces one) may stay
        getitem = user.op == "call_function" and user.target is operator.getitem
        if not getitem or (user.args[1] != 0 and user.users):
            return "its indices output is read (seam computes only the values of cummax/cummin)"
    return _dim_ok(node)


def _scan(ctx, fd_name, x, dim):
    # a 0-d tensor scans as its one element (dim 0 or -1), as in PyTorch
    return getattr(ctx.ops, fd_name)(x, ctx.axis(int(dim), ctx.rank(x)))


def _running(fd_name):
    def convert(ctx, x, dim, dtype=None):
        if dtype is not None:  # PyTorch casts the input first, then accumulates in that dtype
            x = ctx.cast(x, dtype)
        return _scan(ctx, fd_name, x, dim)

    return convert


converter("aten.cumsum.default", supports=_sum_or_product_ok)(_running("cumsum"))
converter("aten.cumprod.default", supports=_sum_or_product_ok)(_running("cumprod"))


def _values_of(fd_name):
    def convert(ctx, x, dim):
        return _scan(ctx, fd_name, x, dim), None  # the indices: none (nothing reads them)

    return convert


converter("aten.cummax.default", supports=_values_only_ok)(_values_of("cummax"))
converter("aten.cummin.default", supports=_values_only_ok)(_values_of("cummin"))
