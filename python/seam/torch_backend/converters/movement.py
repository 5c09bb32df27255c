"""Views and data movement: reshapes, permutes, broadcasts, slices, cat, pad. In seam they are index
arithmetic inside a kernel; a region output that is a view of a region input comes back as a view."""

import sys

import torch

from ...dtypes import torch_to_datatype
from ..context import ConversionError
from ..node_meta import tensor_info
from ..registry import converter


def _ints(values):
    return [int(v) for v in values]


@converter("aten.view.default", "aten._unsafe_view.default", "aten.reshape.default", compute=False, view=True)
def view(ctx, x, shape):
    return ctx.ops.reshape(x, _ints(shape))


@converter("aten.expand.default", compute=False, view=True)
def expand(ctx, x, shape, implicit=False):
    shape = _ints(shape)
    extra = len(shape) - ctx.rank(x)
    if extra < 0:
        raise ConversionError(f"{ctx.where()}: expand to fewer dims than the tensor has")
    if extra:
        x = ctx.ops.broadcast(x, [True] * extra + [False] * ctx.rank(x))
    return ctx.ops.expand(x, shape)


@converter("aten.permute.default", compute=False, view=True)
def permute(ctx, x, dims):
    return ctx.ops.permute(x, _ints(dims))


@converter("aten.transpose.int", compute=False, view=True)
def transpose(ctx, x, dim0, dim1):
    rank = ctx.rank(x)
    if rank == 0:
        return x
    dims = list(range(rank))
    a, b = ctx.axis(dim0, rank), ctx.axis(dim1, rank)
    dims[a], dims[b] = dims[b], dims[a]
    return ctx.ops.permute(x, dims)


@converter("aten.t.default", compute=False, view=True)
def t(ctx, x):
    return ctx.ops.permute(x, [1, 0]) if ctx.rank(x) == 2 else x


@converter("aten.unsqueeze.default", compute=False, view=True)
def unsqueeze(ctx, x, dim):
    rank = ctx.rank(x) + 1
    dim = ctx.axis(dim, rank)
    return ctx.ops.broadcast(x, [i == dim for i in range(rank)])


def _squeeze(ctx, x, dims):
    """aten's squeeze drops the named dims of extent 1 and leaves the others. A symbolic extent is never 1
    (Dynamo specializes extents 0 and 1), so only recorded 1s are dropped."""
    info = ctx.info(x)
    axes = sorted({ctx.axis(d, info.rank) for d in dims} if dims is not None else range(info.rank))
    axes = [a for a in axes if info.static_extent(a) == 1]
    return ctx.ops.squeeze(x, axes) if axes else x


@converter("aten.squeeze.dim", compute=False, view=True)
def squeeze_dim(ctx, x, dim):
    return _squeeze(ctx, x, [dim])


@converter("aten.squeeze.dims", compute=False, view=True)
def squeeze_dims(ctx, x, dims):
    return _squeeze(ctx, x, list(dims))


@converter("aten.squeeze.default", compute=False, view=True)
def squeeze_all(ctx, x):
    return _squeeze(ctx, x, None)


def _slice_ok(node, settings):
    step = node.args[4] if len(node.args) > 4 else node.kwargs.get("step", 1)
    return step is None or not isinstance(step, int) or step >= 1 or "a step below 1"


@converter("aten.slice.Tensor", supports=_slice_ok, compute=False, view=True)
def slice_(ctx, x, dim=0, start=None, end=None, step=1):
    rank = ctx.rank(x)
    dim = ctx.axis(dim, rank)
    starts, ends, steps = [0] * rank, [sys.maxsize] * rank, [1] * rank
    starts[dim] = 0 if start is None else int(start)
    ends[dim] = sys.maxsize if end is None else min(int(end), sys.maxsize)
    steps[dim] = 1 if step is None else int(step)
    return ctx.ops.slice(x, starts, ends, steps)


def _split_pieces(ctx, x, sizes, dim):
    rank = ctx.rank(x)
    dim = ctx.axis(dim, rank)
    out, begin = [], 0
    for size in sizes:
        starts, ends = [0] * rank, [sys.maxsize] * rank
        starts[dim], ends[dim] = begin, begin + size
        out.append(ctx.ops.slice(x, starts, ends, [1] * rank))
        begin += size
    return tuple(out)


def _split_ok(node, settings):
    info = tensor_info(node.args[0])
    dim = node.args[2] if len(node.args) > 2 else node.kwargs.get("dim", 0)
    return info is not None and info.static_extent(dim % max(info.rank, 1)) is not None or \
        "needs a static extent along the split dim"


@converter("aten.split.Tensor", supports=_split_ok, compute=False, view=True)
def split(ctx, x, split_size, dim=0):
    extent = ctx.info(x).static_extent(ctx.axis(dim, ctx.rank(x)))
    size = int(split_size)
    sizes = [min(size, extent - b) for b in range(0, extent, size)] if size > 0 else [extent]
    return _split_pieces(ctx, x, sizes or [0], dim)


@converter("aten.split_with_sizes.default", compute=False, view=True)
def split_with_sizes(ctx, x, split_sizes, dim=0):
    return _split_pieces(ctx, x, _ints(split_sizes), dim)


@converter("aten.select.int", compute=False, view=True)
def select(ctx, x, dim, index):
    rank = ctx.rank(x)
    dim = ctx.axis(dim, rank)
    starts, ends = [0] * rank, [sys.maxsize] * rank
    index = int(index)
    starts[dim], ends[dim] = index, (index + 1) if index != -1 else sys.maxsize
    return ctx.ops.squeeze(ctx.ops.slice(x, starts, ends, [1] * rank), [dim])


@converter("aten.cat.default", compute=False)
def cat(ctx, tensors, dim=0):
    # aten skips 1-D empty tensors of any other rank (a legacy rule); they add nothing
    tensors = [t for t in tensors if not (ctx.rank(t) == 1 and ctx.info(t).static_extent(0) == 0)] or tensors[:1]
    return ctx.ops.cat(list(tensors), ctx.axis(dim, ctx.rank(tensors[0])))


@converter("aten.constant_pad_nd.default", supports=lambda n, s: len(n.args) < 3 or isinstance(
    n.args[2], (int, float)) or "needs a number fill value")
def constant_pad_nd(ctx, x, pad, value=0):
    return ctx.ops.pad(x, _ints(pad), value)


def _slice_backward_ok(node, settings):
    step = node.args[5]
    return isinstance(step, int) and step == 1 or "a step other than 1"


@converter("aten.slice_backward.default", supports=_slice_backward_ok)
def slice_backward(ctx, grad, input_sizes, dim, start, end, step):
    sizes = _ints(input_sizes)
    dim = ctx.axis(dim, len(sizes))
    extent = sizes[dim]
    start, end = int(start), min(int(end), sys.maxsize)
    start = min(max(start + extent if start < 0 else start, 0), extent)
    end = min(max(end + extent if end < 0 else end, start), extent)
    widths = []
    for d in reversed(range(len(sizes))):  # the frontend's pad takes the innermost dim first
        widths += [start, extent - end] if d == dim else [0, 0]
    return ctx.ops.pad(grad, widths, 0)


@converter("aten._reshape_alias.default", compute=False, view=True)
def reshape_alias(ctx, x, shape, stride):
    return ctx.ops.reshape(x, _ints(shape))


def _flip_ok(node, settings):
    dims = node.args[1] if len(node.args) > 1 else node.kwargs.get("dims", ())
    if not all(isinstance(d, int) and not isinstance(d, bool) for d in dims):
        return "the dims must be Python ints"
    info = tensor_info(node.args[0])
    rank = max(info.rank, 1) if info is not None else None
    if rank is None or any(not -rank <= d < rank for d in dims) or len({d % rank for d in dims}) != len(dims):
        return "dims out of range or repeated (PyTorch raises)"
    return True


@converter("aten.flip.default", supports=_flip_ok, compute=False)
def flip(ctx, x, dims):
    """Each dim read backwards: an index_select at the descending iota n-1, ..., 0, which fuses with the work
    around it like any read and, its positions provably in range, checks no index (docs/CODEGEN.md,
    "Indexing")."""
    rank = ctx.rank(x)
    axes = sorted({ctx.axis(int(d), rank) for d in dims}) if rank else []
    for axis in axes:
        n = x.size(axis)
        descending = ctx.ops.iota(n, ctx.ops.sub(n, 1), -1, torch_to_datatype(torch.int64))
        x = ctx.ops.index_select(x, descending, axis)
    return x
