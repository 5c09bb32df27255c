"""fd.ops random numbers: uniform, normal, rand_like and randn_like on seam's IR ops `uniform` and
`normal` (docs/RANDOM.md). Values are a function of (rng_seed, rng_offset, element index): deterministic
for a seed, another stream per offset, the same on CUDA and CPU tensors, but not PyTorch's numbers.
Without rng_seed and rng_offset, each execute takes them from torch's generator (random_state.py)."""

from . import dtypes
from .dtypes import DataType
from .lowering import describe
from .ops import _len, tensor_of
from .op_table import OpTable

table = OpTable()
op = table.op


_U64 = 1 << 64


def _check_seeded(name, rng_seed, rng_offset):
    """At definition time: both or neither (neither: execute draws them from torch's generator)."""
    if (rng_seed is None) != (rng_offset is None):
        raise ValueError(f"fd.ops.{name}: rng_seed and rng_offset must be given together")


def _integer_scalar(ctx, name, what, x):
    if isinstance(x, int) and not isinstance(x, bool):
        if not -(1 << 63) <= x < _U64:
            raise ctx.error(f"{name}: {what} {x} does not fit 64 bits")
        x = x - _U64 if x >= (1 << 63) else x  # seeds count modulo 2^64
    s = ctx.as_sv(x)
    if s.dtype not in ("i32", "i64"):
        raise ctx.error(f"{name}: {what} must be an integer scalar, got {describe(s)}")
    return s


def _number_scalar(ctx, name, what, x):
    s = ctx.as_sv(x)
    if s.dtype == "bool":
        raise ctx.error(f"{name}: {what} must be a number, got a bool")
    return s


def _random(ctx, keyword, name, a, b, shape, rng_seed, rng_offset, dtype, roles):
    if rng_seed is None:
        seed, offset = ctx.random_seed_and_offset()
    else:
        seed = _integer_scalar(ctx, name, "rng_seed", rng_seed)
        offset = _integer_scalar(ctx, name, "rng_offset", rng_offset)
    lo = _number_scalar(ctx, name, roles[0], a)
    hi = _number_scalar(ctx, name, roles[1], b)
    d = dtypes.to_seam(dtype, f"{name} dtype") if not isinstance(dtype, str) else dtype
    if d not in dtypes.FLOATING:
        raise ctx.error(f"{name}: dtype must be a floating type (Half, BFloat16, Float, Double), got {dtype!r}")
    extents = ctx.ints(shape, "shape")
    if any(e < 0 for e in extents):
        raise ctx.error(f"{name}: extents must be >= 0, got {extents}")
    return ctx.op(keyword, [lo, hi, seed, offset], [("shape", extents), ("dtype", ("dtype", d))])


def _shape_rank(args):
    return tensor_of(_len(args[2]))


def _like_rank(args):
    return tensor_of(args[0].ndim)


def _register(name, rank_of, lower, seed_at):
    def out(*args):
        # Called with every parameter bound (defaults applied), positionally; rng_offset follows rng_seed.
        _check_seeded(name, args[seed_at], args[seed_at + 1])
        return rank_of(args)

    op(name, out)(lower)


def _uniform(ctx, minval, maxval, shape, rng_seed=None, rng_offset=None, dtype=DataType.Float):
    return _random(ctx, "uniform", "uniform", minval, maxval, shape, rng_seed, rng_offset, dtype,
                   ("minval", "maxval"))


def _normal(ctx, mean, std, shape, rng_seed=None, rng_offset=None, dtype=DataType.Float):
    return _random(ctx, "normal", "normal", mean, std, shape, rng_seed, rng_offset, dtype, ("mean", "std"))


def _like(keyword, name, a, b):
    def lower(ctx, arg, rng_seed=None, rng_offset=None):
        x = ctx.tensor(arg, "arg")
        if x.dtype not in dtypes.FLOATING:
            raise ctx.error(f"{name}: needs a floating tensor, got {describe(x)}")
        return _random(ctx, keyword, name, a, b, list(x.shape), rng_seed, rng_offset, x.dtype, ("low", "high"))

    return lower


_register("uniform", _shape_rank, _uniform, 3)
_register("normal", _shape_rank, _normal, 3)
_register("rand_like", _like_rank, _like("uniform", "rand_like", 0.0, 1.0), 1)
_register("randn_like", _like_rank, _like("normal", "randn_like", 0.0, 1.0), 1)
