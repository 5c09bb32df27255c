"""fd.ops, the core of them (pointwise, reductions, shapes and views, creation, matrix products,
indexing): per op, (1) what the call gives back at definition time (handles of the right kind and rank)
and (2) how it lowers onto seam's IR once extents are known (lowering.py). registry.py gathers this
table with those of ops_random, ops_batch_norm and ops_embedding, and lists the ops seam refuses."""

import math

from . import dtypes
from .descriptors import allocation_order
from .dtypes import DataType
from .handles import Tensor, Vector
from .lowering import TV, literal
from .op_table import OpTable

table = OpTable()
op = table.op


# --- definition-time results -------------------------------------------------------------------------

def _ndim(x):
    return x.ndim if isinstance(x, Tensor) else 0


def pointwise_out(*xs):
    tensors = [x for x in xs if isinstance(x, Tensor)]
    if tensors:
        return [("T", max(t.ndim for t in tensors))]
    return [("S",)]


def first_out(x, *rest, **kw):
    return pointwise_out(x)


def _count_dims(dims, ndim):
    if dims is None:
        return ndim
    if isinstance(dims, (list, tuple, Vector)):
        if all(isinstance(d, int) for d in dims):
            return len({(d % ndim if ndim else 0) for d in dims})
        return len(dims)
    return 1


def reduction_out(arg, dims=None, keepdim=False, *rest):
    nd = _ndim(arg)
    return [("T", nd if keepdim else nd - _count_dims(dims, nd))]


def tensor_of(n):
    return [("T", n)]


def _len(shape):
    if isinstance(shape, Vector):
        return shape.size
    return len(shape)


# --- pointwise ------------------------------------------------------------------------------------

# Float math: integer operands compute in Float, Half/BFloat16 ones in (and return) Float.
for _name in ("exp log sqrt rsqrt reciprocal sin cos tanh sigmoid erf acos acosh asin asinh atan atanh cosh "
              "sinh exp2 expm1 log1p erfc erfinv erfcinv lgamma").split():
    op(_name, pointwise_out)((lambda kw: lambda ctx, arg: ctx.float_unary(kw, arg))(_name))
# Rounding keeps the dtype (integers unchanged; frac refuses them, as torch does); round is half to even.
for _name in "ceil floor trunc round frac".split():
    op(_name, pointwise_out)((lambda kw: lambda ctx, arg: ctx.pointwise(kw, [arg]))(_name))


@op("signbit", pointwise_out)
def _signbit(ctx, arg):
    return ctx.pointwise("signbit", [arg])


@op("sign", pointwise_out)
def _sign(ctx, arg):
    """nvFuser's composition: 1, -1 or 0 (also for NaN and -0) in the operand's dtype."""
    dtype = ctx.dtype_of(arg)
    if dtype == "bool":
        return arg
    negative = ctx.pointwise("where", ctx.broadcast_all([ctx.pointwise("lt", [arg, 0]), -1, 0]))
    return ctx.cast(ctx.pointwise("where", ctx.broadcast_all([ctx.pointwise("gt", [arg, 0]), 1, negative])),
                    dtype)


@op("tan", pointwise_out)
def _tan(ctx, arg):
    return ctx.arith("div", [ctx.float_unary("sin", arg), ctx.float_unary("cos", arg)])


@op("log2", pointwise_out)
def _log2(ctx, arg):
    return ctx.arith("mul", [ctx.float_unary("log", arg), 1.0 / math.log(2.0)])


@op("log10", pointwise_out)
def _log10(ctx, arg):
    return ctx.arith("mul", [ctx.float_unary("log", arg), 1.0 / math.log(10.0)])


@op("silu", pointwise_out)
def _silu(ctx, arg):
    x = ctx.cast(arg, "f32") if ctx.dtype_of(arg) in dtypes.HALF else arg
    return ctx.arith("mul", [x, ctx.float_unary("sigmoid", x)])


@op("neg", pointwise_out)
def _neg(ctx, arg):
    return ctx.pointwise("neg", [arg])


@op("abs", pointwise_out)
def _abs(ctx, arg):
    return ctx.pointwise("abs", [arg])


@op("relu", pointwise_out)
def _relu(ctx, arg):
    zero = False if ctx.dtype_of(arg) == "bool" else 0
    return ctx.pointwise("maximum", [arg, zero])


@op("logical_not", pointwise_out)
def _logical_not(ctx, arg):
    return ctx.pointwise("logical_not", [arg])


@op("bitwise_not", pointwise_out)
def _bitwise_not(ctx, arg):
    return ctx.pointwise("logical_not" if ctx.dtype_of(arg) == "bool" else "bitwise_not", [arg])


@op("isnan", pointwise_out)
def _isnan(ctx, arg):
    return ctx.pointwise("ne", [arg, arg])


def _is_floating(ctx, arg):
    return ctx.dtype_of(arg) in dtypes.FLOATING


@op("isinf", pointwise_out)
def _isinf(ctx, arg):
    if not _is_floating(ctx, arg):
        return ctx.pointwise("ne", [arg, arg])  # never true
    return ctx.pointwise("eq", [ctx.pointwise("abs", [arg]), math.inf])


@op("isposinf", pointwise_out)
def _isposinf(ctx, arg):
    if not _is_floating(ctx, arg):
        return ctx.pointwise("ne", [arg, arg])  # never true
    return ctx.pointwise("eq", [arg, math.inf])


@op("isneginf", pointwise_out)
def _isneginf(ctx, arg):
    return ctx.pointwise("eq", [arg, -math.inf]) if _is_floating(ctx, arg) else ctx.pointwise("ne", [arg, arg])


@op("isfinite", pointwise_out)
def _isfinite(ctx, arg):
    if not _is_floating(ctx, arg):
        return ctx.pointwise("eq", [arg, arg])
    return ctx.pointwise("lt", [ctx.pointwise("abs", [arg]), math.inf])  # false for inf and NaN


@op("isreal", pointwise_out)
def _isreal(ctx, arg):
    return ctx.pointwise("logical_or", [ctx.pointwise("eq", [arg, arg]), True])


@op("set", first_out)
def _set(ctx, arg):
    return arg


@op("segment_set", first_out)
def _segment_set(ctx, arg):
    return arg


def _binary(keyword, arith=True):
    def lower(ctx, lhs, rhs):
        operands = ctx.broadcast_all([lhs, rhs])
        return ctx.arith(keyword, operands) if arith else ctx.pointwise(keyword, operands)

    return lower


# `mod` is nvFuser's C-style remainder (fmod); `remainder` is Python's (the divisor's sign).
for _name, _kw in (("add", "add"), ("sub", "sub"), ("mul", "mul"), ("truediv", "div"), ("pow", "pow"),
                   ("maximum", "maximum"), ("minimum", "minimum"), ("fmod", "fmod"), ("mod", "fmod"),
                   ("remainder", "remainder"), ("atan2", "atan2"), ("nextafter", "nextafter")):
    op(_name, pointwise_out)(_binary(_kw))
# Integer operands only (the IR refuses others).
for _name in "bitwise_left_shift bitwise_right_shift logical_right_shift gcd".split():
    op(_name, pointwise_out)(_binary(_name, arith=False))
# Comparisons of Half/BFloat16 operands compare in Float, as nvFuser's do (a scalar like 0.1 is not
# rounded to the tensor's dtype first).
for _name in "eq ne lt le gt ge".split():
    op(_name, pointwise_out)(_binary(_name))
for _name in "logical_and logical_or".split():
    op(_name, pointwise_out)(_binary(_name, arith=False))


@op("div", pointwise_out)
def _div(ctx, lhs, rhs):
    """nvFuser's div: true division when an operand is floating, else C's integer division, truncating
    toward zero (torch.div(rounding_mode="trunc")); `truediv` is always true division."""
    kinds = [ctx.dtype_of(x) for x in (lhs, rhs)]
    if any(k in dtypes.FLOATING for k in kinds):
        return _binary("div")(ctx, lhs, rhs)
    if kinds == ["bool", "bool"]:
        raise ValueError(f"{ctx.where}: div of two Bool operands; cast one to an integer dtype first")
    # A bool operand divides as the other operand's integer dtype (torch's promotion).
    lhs, rhs = [ctx.cast(x, kinds[1 - i]) if k == "bool" else x for i, (x, k) in enumerate(zip((lhs, rhs), kinds))]
    return ctx.pointwise("trunc_div", ctx.broadcast_all([lhs, rhs]))


def _bitwise(logical, name):
    """On two bools the logical op; otherwise the integer op, a bool operand taking the other's dtype."""
    def lower(ctx, lhs, rhs):
        kinds = [ctx.dtype_of(x) for x in (lhs, rhs)]
        if kinds == ["bool", "bool"]:
            return ctx.pointwise(logical, ctx.broadcast_all([lhs, rhs]))
        if "bool" in kinds:
            other = kinds[1 - kinds.index("bool")]
            lhs, rhs = [ctx.cast(x, other) if k == "bool" else x for x, k in zip((lhs, rhs), kinds)]
        return ctx.pointwise(name, ctx.broadcast_all([lhs, rhs]))

    return lower


op("bitwise_and", pointwise_out)(_bitwise("logical_and", "bitwise_and"))
op("bitwise_or", pointwise_out)(_bitwise("logical_or", "bitwise_or"))
op("bitwise_xor", pointwise_out)(_bitwise("ne", "bitwise_xor"))


@op("add_alpha", pointwise_out)
def _add_alpha(ctx, lhs, rhs, alpha):
    lhs, rhs = ctx.broadcast_all([lhs, rhs])
    return ctx.arith("add", [lhs, ctx.arith("mul", [rhs, alpha])])


@op("sub_alpha", pointwise_out)
def _sub_alpha(ctx, lhs, rhs, alpha):
    lhs, rhs = ctx.broadcast_all([lhs, rhs])
    return ctx.arith("sub", [lhs, ctx.arith("mul", [rhs, alpha])])


@op("where", pointwise_out)
def _where(ctx, pred, lhs, rhs):
    return ctx.pointwise("where", ctx.broadcast_all([pred, lhs, rhs]))


@op("lerp", pointwise_out)
def _lerp(ctx, start, end, weight):
    start, end, weight = ctx.broadcast_all([start, end, weight])
    diff = ctx.arith("sub", [end, start])
    low = ctx.arith("add", [start, ctx.arith("mul", [weight, diff])])
    high = ctx.arith("sub", [end, ctx.arith("mul", [diff, ctx.arith("sub", [1, weight])])])
    # torch's formula: from `end` when the weight is at least 0.5, for accuracy near it.
    cond = ctx.pointwise("lt", [ctx.pointwise("abs", [weight]), 0.5])
    return ctx.pointwise("where", ctx.broadcast_all([cond, low, high]))


@op("clamp", pointwise_out)
def _clamp(ctx, arg, min=None, max=None):
    x = arg
    if min is not None:
        x = ctx.pointwise("maximum", ctx.broadcast_all([x, min]))
    if max is not None:
        x = ctx.pointwise("minimum", ctx.broadcast_all([x, max]))
    return x


@op("threshold", pointwise_out)
def _threshold(ctx, arg, threshold, value):
    cond = ctx.pointwise("gt", ctx.broadcast_all([arg, threshold]))
    return ctx.pointwise("where", ctx.broadcast_all([cond, arg, value]))


@op("addcmul", pointwise_out)
def _addcmul(ctx, arg, tensor1, tensor2, value):
    arg, tensor1, tensor2 = ctx.broadcast_all([arg, tensor1, tensor2])
    return ctx.arith("add", [arg, ctx.arith("mul", [ctx.arith("mul", [tensor1, tensor2]), value])])


@op("cast", first_out)
def _cast(ctx, arg, dtype):
    return ctx.cast(arg, dtypes.to_seam(dtype))


# --- reductions -----------------------------------------------------------------------------------

def _reduced_axes(ctx, x, dims):
    if dims is None:
        return list(range(x.rank))
    axes = [ctx.axis(d, x.rank) for d in ctx.ints(dims, "dims")]
    for a in axes:
        if axes.count(a) > 1:  # as PyTorch: a repeated dim is a mistake, not a reduction done once
            raise ctx.error(f"dim {a} appears multiple times in the list of dims {list(dims)}")
    return sorted(axes)


def _reduce(ctx, keyword, x, axes, keepdim):
    if not axes:
        return x
    return ctx.op(keyword, [x], [("axes", axes), ("keepdim", bool(keepdim))])


def _sum_prod(keyword):
    def lower(ctx, arg, dims=None, keepdim=False, dtype=DataType.Null):
        x = ctx.tensor(arg)
        if dtype is not None and dtype != DataType.Null:
            wanted = dtypes.to_seam(dtype)
            # the IR accumulates integers in Int; the result has the dtype asked for
            return ctx.cast(_reduce(ctx, keyword, ctx.cast(x, wanted), _reduced_axes(ctx, x, dims), keepdim), wanted)
        if x.dtype in ("bool", "i32"):
            x = ctx.cast(x, "i64")  # integer sums and products accumulate in Int, as nvFuser's do
        return _reduce(ctx, keyword, x, _reduced_axes(ctx, x, dims), keepdim)

    return lower


op("sum", reduction_out)(_sum_prod("sum"))
op("prod", reduction_out)(_sum_prod("prod"))


def _max_min(keyword):
    def lower(ctx, arg, dims=None, keepdim=False, dtype=DataType.Null):
        if dtype is not None and dtype != DataType.Null:
            raise ValueError(f"fd.ops.{keyword}: a dtype cannot be given to {keyword}")
        x = ctx.tensor(arg)
        axes = _reduced_axes(ctx, x, dims)
        for a in axes:
            if x.shape[a] == 0:
                raise ValueError(f"fd.ops.{keyword}: cannot reduce axis {a} of extent 0 of {list(x.shape)}")
        return _reduce(ctx, keyword, x, axes, keepdim)

    return lower


op("max", reduction_out)(_max_min("max"))
op("min", reduction_out)(_max_min("min"))


def _float_input(ctx, x):
    return ctx.cast(x, "f32") if x.dtype not in ("f32", "f64") else x


def _count(x, axes):
    n = 1
    for a in axes:
        n *= x.shape[a]
    return n


def _mean_keep(ctx, x, axes):
    """The mean over `axes` kept as extent-1 axes (x already floating)."""
    return ctx.arith("div", [ctx.op("sum", [x], [("axes", axes), ("keepdim", True)]), float(_count(x, axes))])


@op("mean", reduction_out)
def _mean(ctx, arg, dims=None, keepdim=False, dtype=DataType.Null):
    x = ctx.tensor(arg)
    if dtype is not None and dtype != DataType.Null:
        x = ctx.cast(x, dtypes.to_seam(dtype))
    x = _float_input(ctx, x)
    axes = _reduced_axes(ctx, x, dims)
    if not axes:
        return x
    mean = _mean_keep(ctx, x, axes)
    return mean if keepdim else ctx.op("squeeze", [mean], [("axes", axes)])


def _var_parts(ctx, arg, dims, correction, keepdim):
    x = _float_input(ctx, ctx.tensor(arg))
    axes = _reduced_axes(ctx, x, dims)
    correction = ctx.number(correction, "correction")
    mean = _mean_keep(ctx, x, axes) if axes else x
    diff = ctx.arith("sub", [x, ctx.expand(mean, x.shape)])
    squares = ctx.arith("mul", [diff, diff])
    var_sum = _reduce(ctx, "sum", squares, axes, keepdim)
    var = ctx.arith("div", [var_sum, float(max(0, _count(x, axes) - correction))])
    if not keepdim and axes:
        mean = ctx.op("squeeze", [mean], [("axes", axes)])
    return var, mean, var_sum, axes, x


def _var_out(arg, dims=None, correction=1, keepdim=False):
    return reduction_out(arg, dims, keepdim)


@op("var", _var_out)
def _var(ctx, arg, dims=None, correction=1, keepdim=False):
    return _var_parts(ctx, arg, dims, correction, keepdim)[0]


@op("var_mean", lambda *a: _var_out(*a) * 2)
def _var_mean(ctx, arg, dims=None, correction=1, keepdim=False):
    var, mean = _var_parts(ctx, arg, dims, correction, keepdim)[:2]
    return var, mean


@op("welford", lambda arg, dims=None: reduction_out(arg, dims) * 3)
def _welford(ctx, arg, dims=None):
    var, mean, var_sum, axes, x = _var_parts(ctx, arg, dims, 0, False)
    n = ctx.op("full", [], [("value", ("number", _count(x, axes)))], ("i64", list(mean.shape)))
    return mean, var_sum, n


# --- shapes and views -----------------------------------------------------------------------------

@op("broadcast_in_dim", lambda arg, shape, broadcast_dims: tensor_of(_len(shape)))
def _broadcast_in_dim(ctx, arg, shape, broadcast_dims):
    x = ctx.tensor(arg)
    shape = ctx.ints(shape, "shape")
    dims = [ctx.axis(d, len(shape), "broadcast_dims entry") for d in ctx.ints(broadcast_dims, "broadcast_dims")]
    if len(dims) != x.rank:
        raise ctx.error(f"broadcast_dims has {len(dims)} entries for a tensor of rank {x.rank}")
    if len(set(dims)) != len(dims):
        raise ctx.error(f"broadcast_dims {dims} repeats a dimension")
    order = sorted(range(len(dims)), key=lambda i: dims[i])
    x = ctx.permute(x, order)
    dims = sorted(dims)
    x = ctx.broadcast(x, [i for i in range(len(shape)) if i not in dims])
    for i, s in enumerate(shape):
        if s < -1:  # -1 keeps the input's extent
            raise ctx.error(f"output extent {s} of dim {i} (shape {shape}) is negative")
    target = [x.shape[i] if s == -1 else s for i, s in enumerate(shape)]
    for i in dims:
        if x.shape[i] not in (1, target[i]):
            raise ctx.error(f"input extent {x.shape[i]} cannot broadcast to {target[i]} in output dim {i} "
                            f"(shape {shape})")
    return ctx.expand(x, target)


@op("broadcast", lambda arg, is_broadcast_dim: tensor_of(len(is_broadcast_dim)))
def _broadcast(ctx, arg, is_broadcast_dim):
    x = ctx.tensor(arg)
    flags = [bool(f) for f in is_broadcast_dim]
    if len(flags) - sum(flags) != x.rank:
        raise ctx.error(f"is_broadcast_dim {flags} has {len(flags) - sum(flags)} kept dims for a tensor of "
                        f"rank {x.rank}")
    return ctx.broadcast(x, [i for i, f in enumerate(flags) if f])


@op("expand", lambda arg, shape: tensor_of(_len(shape)))
def _expand(ctx, arg, shape):
    x = ctx.tensor(arg)
    shape = ctx.ints(shape, "shape")
    if len(shape) != x.rank:
        raise ctx.error(f"expand to {shape} needs a tensor of rank {len(shape)}, got rank {x.rank}")
    return ctx.expand(x, [x.shape[i] if s == -1 else s for i, s in enumerate(shape)])


def _reshape_out(arg, new_shape, *legacy):
    return tensor_of(_len(legacy[0] if legacy else new_shape))


@op("reshape", _reshape_out)
def _reshape(ctx, arg, new_shape, *legacy):
    x = ctx.tensor(arg)
    shape = ctx.ints(legacy[0] if legacy else new_shape, "new_shape")
    numel = math.prod(x.shape)
    if shape.count(-1) > 1:
        raise ctx.error(f"new_shape {shape} has more than one -1")
    if -1 in shape:
        known = math.prod(s for s in shape if s != -1)
        if known == 0 or numel % known:
            raise ctx.error(f"cannot reshape {list(x.shape)} to {shape}")
        shape[shape.index(-1)] = numel // known
    if math.prod(shape) != numel or any(s < 0 for s in shape):
        raise ctx.error(f"cannot reshape {list(x.shape)} ({numel} elements) to {shape}")
    return ctx.reshape(x, shape)


@op("permute", lambda arg, dims: tensor_of(len(dims)))
def _permute(ctx, arg, dims):
    x = ctx.tensor(arg)
    perm = [ctx.axis(d, x.rank) for d in ctx.ints(dims, "dims")]
    if sorted(perm) != list(range(x.rank)):
        raise ctx.error(f"dims {perm} is not a permutation of {x.rank} dims")
    return ctx.permute(x, perm)


@op("squeeze", lambda arg, dims, squeeze_expanded=False: tensor_of(arg.ndim - _count_dims(dims, arg.ndim)))
def _squeeze(ctx, arg, dims, squeeze_expanded=False):
    x = ctx.tensor(arg)
    axes = sorted({ctx.axis(d, x.rank) for d in ctx.ints(dims, "dims")})
    for a in axes:
        if x.shape[a] != 1:
            raise ctx.error(f"cannot squeeze dim {a} of extent {x.shape[a]} (shape {list(x.shape)})")
    return ctx.op("squeeze", [x], [("axes", axes)]) if axes else x


@op("stride_order", first_out)
def _stride_order(ctx, arg, stride_order):
    x = ctx.tensor(arg)
    return TV(x.id, x.dtype, x.shape, alloc_order(ctx, stride_order, x.rank))


def alloc_order(ctx, stride_order, rank):
    """Axes from outermost to innermost for nvFuser's stride_order (entry i: how far in from the
    innermost position logical dim i is)."""
    order = [ctx.integer(s, "stride_order entry") % max(rank, 1) for s in stride_order]
    if sorted(order) != list(range(rank)):
        raise ctx.error(f"stride_order {list(stride_order)} is not a permutation of {rank} dims")
    return allocation_order(order, rank)


def _slice_out(arg, start_indices, end_indices, strides=None, manual_normalization=False):
    """Mismatched lengths raise when the op is defined, in nvFuser's words."""
    lengths = [len(v) if isinstance(v, (list, Vector)) else None for v in (start_indices, end_indices, strides)]
    start, end, stride = lengths
    if start is not None and start != _ndim(arg):
        raise ValueError(f"fd.ops.slice: Number of tensor dimensions does not match slice dimensions! "
                         f"Tensor-dims: {_ndim(arg)} Slice-dims: {start}")
    if None not in (start, end) and start != end:
        raise ValueError(f"fd.ops.slice: Slice indexing attribute dimensions don't match! Start Indices: {start} "
                         f"End Indices: {end}")
    if None not in (start, stride) and start != stride:
        raise ValueError(f"fd.ops.slice: Slice start_indices and strides don't match! Start Indices: {start} "
                         f"Strides: {stride}")
    return first_out(arg)


@op("slice", _slice_out)
def _slice(ctx, arg, start_indices, end_indices, strides=None, manual_normalization=False):
    x = ctx.tensor(arg)
    starts = ctx.ints(start_indices, "start_indices")
    stops = ctx.ints(end_indices, "end_indices")
    steps = ctx.ints(strides, "strides") if strides is not None else [1] * x.rank
    if not len(starts) == len(stops) == len(steps) == x.rank:
        raise ctx.error(f"slice of a rank-{x.rank} tensor needs {x.rank} start, end and stride entries, got "
                        f"{len(starts)}, {len(stops)}, {len(steps)}")
    norm_starts, norm_stops = [], []
    for d, (a, b, s, e) in enumerate(zip(starts, stops, steps, x.shape)):
        if s < 1:
            raise ctx.error(f"slice stride {s} in dim {d}: only positive strides are supported")
        if manual_normalization:
            if not 0 <= a <= b <= e:
                raise ctx.error(f"slice [{a}:{b}] of dim {d} (extent {e}) is out of range; with "
                                "manual_normalization the indices must be normalized")
        else:
            a = min(max(a + e if a < 0 else a, 0), e)
            b = min(max(b + e if b < 0 else b, 0), e)
            b = max(a, b)
        norm_starts.append(a)
        norm_stops.append(b)
    if norm_starts == [0] * x.rank and norm_stops == list(x.shape) and steps == [1] * x.rank:
        return x
    return ctx.op("slice", [x], [("starts", norm_starts), ("stops", norm_stops), ("steps", steps)])


@op("pad", first_out)
def _pad(ctx, arg, pad_widths, value=None):
    x = ctx.tensor(arg)
    widths = ctx.ints(pad_widths, "pad_widths")
    if len(widths) % 2 or len(widths) > 2 * x.rank:
        raise ctx.error(f"pad_widths {widths} must hold (low, high) pairs for at most {x.rank} dims")
    low, high = [0] * x.rank, [0] * x.rank
    for i in range(len(widths) // 2):
        low[x.rank - 1 - i], high[x.rank - 1 - i] = widths[2 * i], widths[2 * i + 1]
    v = 0 if value is None else ctx.number(value, "value")
    return ctx.op("pad", [x], [("low", low), ("high", high), ("value", literal(v, x.dtype))])


@op("cat", lambda tensors, dim=0, manual_padding=False: tensor_of(tensors[0].ndim))
def _cat(ctx, tensors, dim=0, manual_padding=False):
    xs = [ctx.tensor(t, f"tensors[{i}]") for i, t in enumerate(tensors)]
    if not xs:
        raise ctx.error("cat needs at least one tensor")
    axis = ctx.axis(dim, xs[0].rank)
    dtype = xs[0].dtype
    for x in xs[1:]:
        dtype = dtypes.promote_types(dtype, x.dtype)
    xs = [ctx.cast(x, dtype) for x in xs]
    if len(xs) == 1:
        return xs[0]
    return ctx.op("cat", xs, [("axis", axis)])


@op("size", lambda arg, dim: [("S",)])
def _size(ctx, arg, dim):
    x = ctx.tensor(arg)
    return ctx.constant(x.shape[ctx.axis(dim, x.rank)], "i64")


@op("shape", lambda arg: [("V", arg.ndim)])
def _shape(ctx, arg):
    x = ctx.tensor(arg)
    return [ctx.constant(e, "i64") for e in x.shape]


@op("tensor_sizes", lambda arg: [("V", arg.ndim)])
def _tensor_sizes(ctx, arg):
    return _shape(ctx, arg)


@op("at", lambda arg, index: [("S",)])
def _at(ctx, arg, index):
    if not isinstance(arg, list):
        raise ctx.error("at() needs a Vector")
    i = ctx.integer(index, "index")
    if not -len(arg) <= i < len(arg):
        raise ctx.error(f"index {i} is out of range for a vector of {len(arg)} entries")
    return arg[i]


# --- creation -------------------------------------------------------------------------------------

@op("full", lambda shape, fill_value, dtype: tensor_of(_len(shape)))
def _full(ctx, shape, fill_value, dtype):
    shape = ctx.ints(shape, "shape")
    d = dtypes.to_seam(dtype)
    if any(s < 0 for s in shape):
        raise ctx.error(f"full: extents must be >= 0, got {shape}")
    v = ctx.number(fill_value, "fill_value")
    return ctx.op("full", [], [("value", literal(v, d))], (d, shape))


@op("iota", lambda length, start=None, step=None, dtype=DataType.Int: tensor_of(1))
def _iota(ctx, length, start=None, step=None, dtype=DataType.Int):
    n = ctx.integer(length, "length")
    d = dtypes.to_seam(dtype)
    if n < 0:
        raise ctx.error(f"iota: length must be >= 0, got {n}")
    a = 0 if start is None else ctx.number(start, "start")
    s = 1 if step is None else ctx.number(step, "step")
    return ctx.op("iota", [], [("start", literal(a, d)), ("step", literal(s, d))], (d, [n]))


@op("triu", first_out)
def _triu(ctx, input, diagonal=0):
    x = ctx.tensor(input)
    if x.rank < 2:
        raise ctx.error(f"triu needs a tensor of rank >= 2, got {x.rank}")
    k = ctx.integer(diagonal, "diagonal")
    rows, cols = x.shape[-2], x.shape[-1]
    r = ctx.op("iota", [], [("start", ("number", 0)), ("step", ("number", 1))], ("i64", [rows]))
    c = ctx.op("iota", [], [("start", ("number", 0)), ("step", ("number", 1))], ("i64", [cols]))
    r = ctx.expand(ctx.broadcast(r, [1]), [rows, cols])
    c = ctx.expand(ctx.broadcast(c, [0]), [rows, cols])
    keep = ctx.pointwise("ge", [ctx.pointwise("sub", [c, r]), k])
    keep = ctx.broadcast_to(keep, x.shape)
    zero = False if x.dtype == "bool" else 0
    return ctx.pointwise("where", [keep, x, zero])


# --- matrix products ------------------------------------------------------------------------------

def _matmul_out(arg1, arg2):
    a, b = arg1.ndim, arg2.ndim
    if a == 1 and b == 1:
        return tensor_of(0)
    if a == 1:
        return tensor_of(b - 1)
    if b == 1:
        return tensor_of(a - 1)
    return tensor_of(max(a, b))


@op("matmul", _matmul_out)
def _matmul(ctx, arg1, arg2):
    a, b = ctx.tensor(arg1, "arg1"), ctx.tensor(arg2, "arg2")
    squeeze = []
    if a.rank == 1:
        a = ctx.broadcast(a, [0])
    if b.rank == 1:
        b = ctx.broadcast(b, [1])
    out = ctx.op("matmul", [a, b])
    if arg2.rank == 1:
        squeeze.append(out.rank - 1)
    if arg1.rank == 1:
        squeeze.append(out.rank - 2)
    return ctx.op("squeeze", [out], [("axes", sorted(squeeze))]) if squeeze else out


@op("linear", lambda arg1, arg2, bias=None: tensor_of(arg1.ndim if arg2.ndim == 2 else arg1.ndim - 1))
def _linear(ctx, arg1, arg2, bias=None):
    x, w = ctx.tensor(arg1, "arg1"), ctx.tensor(arg2, "arg2")
    if w.rank != 2:
        raise ctx.error(f"linear: the weight must have rank 2, got {list(w.shape)}")
    operands = [x, w] + ([ctx.tensor(bias, "bias")] if bias is not None else [])
    return ctx.op("linear", operands)


# --- scans ----------------------------------------------------------------------------------------
# cumsum, cumprod, cummin and cummax along one axis (docs/IR.md, "Scans") with torch's dtypes: integer and
# bool inputs sum and multiply in Int (int64), floating ones keep their dtype (Half/BFloat16 accumulate in
# Float, each output rounded); cummin and cummax keep the input's dtype, a NaN once seen stays. nvFuser's
# `init` (the value the scan starts from; None: the op's identity) is combined with every output; it may
# not change the result's dtype.

_SCAN_INIT = {"cumsum": "add", "cumprod": "mul", "cummin": "minimum", "cummax": "maximum"}


def _scan(keyword):
    def lower(ctx, arg, dim, init=None):
        x = ctx.tensor(arg)
        out = ctx.op(keyword, [x], [("axis", ctx.axis(dim, x.rank))])
        if init is None:
            return out
        ctx.as_sv(init)  # a number or a Scalar
        combined = ctx.pointwise(_SCAN_INIT[keyword], [out, init])
        if combined.dtype != out.dtype:
            raise ctx.error(f"{keyword}: an init of dtype {ctx.dtype_of(init)} would change the result's "
                            f"dtype {out.dtype} to {combined.dtype}; cast the init first")
        return combined

    return lower


for _name in _SCAN_INIT:
    op(_name, lambda arg, dim, init=None: tensor_of(_ndim(arg)))(_scan(_name))
# --- indexing -------------------------------------------------------------------------------------
# seam's indexing ops (docs/IR.md, "Indexing"): an index in [-n, n) of an axis of extent n reads
# position i (i < 0: i + n); any other index raises an error naming the op and the index when the fusion
# runs. torch.gather and torch.index_select reject negative indices; seam wraps them once, as select does.

def _index_tensor(ctx, index, op_name):
    i = ctx.tensor(index, "index")
    if i.dtype not in dtypes.INTEGER:
        raise ctx.error(f"{op_name}: the index must have an integer dtype, got {i.dtype}")
    return i


@op("index_select", lambda arg, index, dim: tensor_of(arg.ndim))
def _index_select(ctx, arg, index, dim):
    x = ctx.tensor(arg)
    i = _index_tensor(ctx, index, "index_select")
    if i.rank == 0:  # torch.index_select takes a 0-dim index as one element
        i = ctx.reshape(i, [1])
    return ctx.op("index_select", [x, i], [("axis", ctx.axis(dim, x.rank))])


@op("select", lambda arg, index, dim: tensor_of(arg.ndim - 1))
def _select(ctx, arg, index, dim):
    x = ctx.tensor(arg)
    if isinstance(index, TV):
        index = _index_tensor(ctx, index, "select")
    elif ctx.dtype_of(index) not in dtypes.INTEGER:
        raise ctx.error(f"select: the index must be an integer, got {describe_scalar(ctx, index)}")
    return ctx.op("select", [x, index], [("axis", ctx.axis(dim, x.rank))])


def describe_scalar(ctx, x):
    return f"{ctx.dtype_of(x)} {x.py if hasattr(x, 'py') else x!r}"


@op("gather", lambda arg1, index, dim: tensor_of(index.ndim))
def _gather(ctx, arg1, index, dim):
    x = ctx.tensor(arg1)
    i = _index_tensor(ctx, index, "gather")
    return ctx.op("gather", [x, i], [("axis", ctx.axis(dim, x.rank))])


@op("scatter", lambda arg, index, src, dim: tensor_of(arg.ndim))
def _scatter(ctx, arg, index, src, dim):
    """torch.scatter: a copy of `arg` with `src` (a tensor of arg's rank and dtype, or a scalar) written at
    the positions `index` holds along `dim` (docs/IR.md, "Scatter")."""
    x = ctx.tensor(arg)
    i = _index_tensor(ctx, index, "scatter")
    s = src if isinstance(src, TV) else ctx.as_sv(src)
    return ctx.op("scatter", [x, i, s], [("axis", ctx.axis(dim, x.rank))])


@op("take_along_axis", lambda arg1, index, dim: tensor_of(arg1.ndim))
def _take_along_axis(ctx, arg1, index, dim):
    x = ctx.tensor(arg1)
    i = _index_tensor(ctx, index, "take_along_axis")
    return ctx.op("take_along_axis", [x, i], [("axis", ctx.axis(dim, x.rank))])
