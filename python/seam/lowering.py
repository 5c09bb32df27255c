"""Specializing a definition for concrete inputs: its records replayed on seam's FusionBuilder with every
extent known. A tensor becomes a TV (a builder value with dtype and shape), a scalar an SV: its Python
value is always known here, and it becomes a node of the fusion only where a tensor op uses it."""

import math
import operator

from . import dtypes
from ._native import native
from .handles import Scalar, Tensor, Vector


class TV:
    """A tensor value of the fusion being built. `alloc` is an allocation order (outermost axis first)
    requested by fd.ops.stride_order, honoured when the value is an output."""

    __slots__ = ("id", "dtype", "shape", "alloc")

    def __init__(self, id, dtype, shape, alloc=None):
        self.id, self.dtype, self.shape, self.alloc = id, dtype, tuple(shape), alloc

    @property
    def rank(self):
        return len(self.shape)


class SV:
    """A scalar: its value (None where seam computes it and Python cannot), its dtype, the run-time
    scalar inputs it depends on, and how to make it a node of the fusion."""

    __slots__ = ("py", "dtype", "deps", "_id", "_make", "why")

    def __init__(self, py, dtype, deps, make, why=None):
        self.py, self.dtype, self.deps, self._id, self._make = py, dtype, frozenset(deps), None, make
        self.why = why  # why Python does not know the value, where it could not compute it

    def node(self):
        if self._id is None:
            self._id = self._make()
        return self._id


def natural_dtype(value):
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "i64"
    if isinstance(value, float):
        return "f64"
    raise TypeError(f"expected a number, got {type(value).__name__} {value!r}")


_I64_MIN, _I64_END = -(1 << 63), 1 << 63


def fits_64_bits(value):
    """Whether a Python int is a value of seam's Int (int64)."""
    return _I64_MIN <= value < _I64_END


def convert(value, dtype):
    """A Python number converted as a cast to `dtype` would."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and not fits_64_bits(value):
        raise ValueError(f"the Python int {value} does not fit 64 bits (seam's Int is int64)")
    if dtype == "bool":
        return bool(value)
    if dtype in dtypes.INTEGER:
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"{value} cannot be converted to an integer dtype")
        return int(value)
    return float(value)


def literal(value, dtype):
    """A literal that fits `dtype` (the IR refuses e.g. 2.5 for an integer)."""
    v = convert(value, dtype)
    return ("number", v)


def _true_div(a, b):
    if b == 0:
        return math.copysign(math.inf, a) * math.copysign(1, b) if a != 0 and not math.isnan(a) else math.nan
    return a / b


def _pow(a, b):
    """C's pow: an integer power of integers stays exact; otherwise floating, NaN for a negative base and
    a non-integer exponent (Python would give a complex number), infinity on overflow."""
    if isinstance(a, int) and isinstance(b, int) and b >= 0:
        return a ** b
    try:
        return math.pow(a, b)
    except ValueError:
        return math.nan if a < 0 else math.inf  # a negative base with a fractional exponent; 0 ** -1
    except OverflowError:
        return math.copysign(math.inf, a) if float(b).is_integer() and int(b) % 2 else math.inf


# Python semantics of scalar ops, for scalars whose values shape the fusion (extents, indices, fill values).
PY_SCALAR = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": _true_div,
    "neg": operator.neg, "abs": abs, "maximum": max, "minimum": min,
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
    "ge": operator.ge, "pow": _pow,
    "logical_and": lambda a, b: bool(a) and bool(b), "logical_or": lambda a, b: bool(a) or bool(b),
    "logical_not": lambda a: not a,
}


def _int_fmod(a, b):
    """C's fmod on integers: the remainder of truncating division, with the dividend's sign."""
    r = abs(a) % abs(b)
    return r if a >= 0 else -r


def _trunc_div(a, b):
    """C's integer division, toward zero; by zero gives -1 as the IR's trunc_div (and the GPU) does."""
    if b == 0:
        return -1
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


# Ops that scalars whose values shape the fusion may go through (nvFuser's dynamic reshapes compute
# extents with them); their IR ops follow torch's semantics.
PY_SCALAR.update({
    "fmod": lambda a, b: _int_fmod(a, b) if isinstance(a, int) and isinstance(b, int) else math.fmod(a, b),
    "remainder": operator.mod, "reciprocal": lambda a: _true_div(1.0, a), "trunc_div": _trunc_div,
    "signbit": lambda a: math.copysign(1.0, a) < 0,
    "trunc": math.trunc, "floor": math.floor, "ceil": math.ceil, "round": round,
})


class Lowering:
    unseeded_random_ops = 0  # random ops without rng_seed so far: each takes a hidden (seed, offset)

    def __init__(self, name, inputs, device):
        self.b = native.FusionBuilder(name)
        self.inputs = inputs          # the flattened execute() inputs
        self.device = device          # torch.device every tensor input is on
        self.fusion_inputs = []       # per fusion input: (flat input index, seam dtype, is_scalar)
        self.meta = set()             # flat indices of scalar inputs whose values the fusion depends on
        self.env = {}                 # handle index -> TV | SV | list of SV
        self.where = ""               # the record being lowered, for messages
        self.input_slots = {}         # node id of a tensor input -> its flat input index
        self.input_updates = []       # (TV, flat input index): values an op writes into an input in place

    def update_input(self, target, value, what):
        """Writes `value` into the input tensor `target` after the run (ops that update state in place,
        like batch_norm's running stats)."""
        slot = self.input_slots.get(target.id)
        if slot is None:
            raise self.error(f"{what} must be an input tensor of the definition to be updated in place")
        self.input_updates.append((value, slot))

    # --- resolving handles -------------------------------------------------------------------------
    def resolve(self, x):
        if isinstance(x, (Tensor, Scalar, Vector)):
            return self.env[x.index]
        if isinstance(x, (list, tuple)):
            return [self.resolve(e) for e in x]
        return x

    def error(self, message):
        return ValueError(f"{self.where}: {message}" if self.where else message)

    # --- scalars ----------------------------------------------------------------------------------
    def constant(self, value, dtype=None):
        dtype = dtype or natural_dtype(value)
        value = convert(value, dtype)
        return SV(value, dtype, (), lambda: self.b.constant(value, dtype))

    def scalar_input(self, flat_index, dtype):
        value = convert(self.inputs[flat_index], dtype)

        def make():
            self.fusion_inputs.append((flat_index, dtype, True))
            return self.b.scalar_input(dtype, f"S{flat_index}")

        return SV(value, dtype, (flat_index,), make)

    def random_seed_and_offset(self):
        """Hidden run-time inputs (seed, offset) of a random op defined without them: they follow the
        execute() inputs, and each call fills them from torch's generator (random_state.py)."""
        k = self.unseeded_random_ops
        self.unseeded_random_ops += 1
        base = len(self.inputs) + 2 * k

        def hidden(index, name):
            def make():
                self.fusion_inputs.append((index, "i64", True))
                return self.b.scalar_input("i64", name)

            return SV(None, "i64", (), make)

        return hidden(base, f"rng_seed{k}"), hidden(base + 1, f"rng_offset{k}")

    def as_sv(self, x):
        if isinstance(x, SV):
            return x
        if isinstance(x, (bool, int, float)):
            return self.constant(x)
        raise self.error(f"expected a scalar, got {describe(x)}")

    def number(self, x, what):
        """The value of a scalar that the fusion's structure depends on: it becomes part of the cache key."""
        if isinstance(x, SV):
            if x.py is None:
                if x.why:
                    raise self.error(f"{what} cannot be computed: {x.why}")
                raise self.error(f"{what} must be known before the fusion runs; it is computed by a tensor op")
            self.meta |= x.deps
            return x.py
        if isinstance(x, (bool, int, float)):
            return x
        raise self.error(f"{what} must be a number or a Scalar, got {describe(x)}")

    def integer(self, x, what):
        v = self.number(x, what)
        if isinstance(v, float):
            if not v.is_integer():
                raise self.error(f"{what} must be an integer, got {v}")
            v = int(v)
        return int(v)

    def ints(self, xs, what):
        if isinstance(xs, (SV, int)):
            xs = [xs]
        if not isinstance(xs, (list, tuple)):
            raise self.error(f"{what} must be a list of integers, got {describe(xs)}")
        return [self.integer(x, f"{what}[{i}]") for i, x in enumerate(xs)]

    # --- tensors ----------------------------------------------------------------------------------
    def tensor(self, x, what="operand"):
        if not isinstance(x, TV):
            raise self.error(f"{what} must be a Tensor, got {describe(x)}")
        return x

    def node(self, x):
        if isinstance(x, TV):
            return x.id
        return self.as_sv(x).node()

    def wrap(self, id):
        dtype, is_scalar, shape = self.b.type(id)
        if is_scalar:
            return SV(None, dtype, (), lambda: id)
        return TV(id, dtype, shape)

    def op(self, keyword, operands, attrs=(), declared=None):
        try:
            id = self.b.op(keyword, [self.node(x) for x in operands], list(attrs), declared)
        except native.SeamError as e:
            raise native.SeamError(f"{self.where}: {e}" if self.where else str(e)) from None
        return self.wrap(id)

    def pointwise(self, keyword, operands, attrs=()):
        """A pointwise op; on scalars alone it stays a scalar whose value Python knows where it can."""
        if any(isinstance(x, TV) for x in operands):
            return self.op(keyword, operands, attrs)
        svs = [self.as_sv(x) for x in operands]
        scratch = native.FusionBuilder("scalar")
        try:
            ids = [scratch.scalar_input(s.dtype) for s in svs]
            dtype = scratch.type(scratch.op(keyword, ids, list(attrs)))[0]
        except native.SeamError as e:
            raise native.SeamError(f"{self.where}: {e}") from None
        fn = PY_SCALAR.get(keyword)
        py, why = None, next((s.why for s in svs if s.why), None)
        if fn is not None and all(s.py is not None for s in svs):
            try:
                py = convert(fn(*[s.py for s in svs]), dtype)
            except (ArithmeticError, ValueError) as e:
                why = f"{keyword}{tuple(s.py for s in svs)} is undefined ({e})"
        deps = frozenset().union(*[s.deps for s in svs])
        return SV(py, dtype, deps, lambda: self.b.op(keyword, [s.node() for s in svs], list(attrs)), why)

    def dtype_of(self, x):
        if isinstance(x, (TV, SV)):
            return x.dtype
        return natural_dtype(x)

    def cast(self, x, dtype):
        if self.dtype_of(x) == dtype:
            return x if isinstance(x, (TV, SV)) else self.constant(x, dtype)
        if isinstance(x, TV):
            return self.op("cast", [x], [("dtype", ("dtype", dtype))])
        s = self.as_sv(x)
        return SV(convert(s.py, dtype), dtype, s.deps,
                  lambda: self.b.op("cast", [s.node()], [("dtype", ("dtype", dtype))]))

    def arith(self, keyword, operands):
        """A math op with nvFuser's types: Half/BFloat16 operands compute in (and return) Float."""
        tiers = []
        for x in operands:
            if isinstance(x, TV):
                tiers.append((x.dtype, 2 if x.rank else 1))
            else:
                tiers.append((self.dtype_of(x), 0))
        if any(isinstance(x, TV) for x in operands) and dtypes.result_type(tiers) in dtypes.HALF:
            operands = [self.cast(x, "f32") if isinstance(x, TV) and x.dtype in dtypes.HALF else x
                        for x in operands]
        return self.pointwise(keyword, operands)

    def float_unary(self, keyword, x):
        if isinstance(x, TV) and x.dtype in dtypes.HALF:
            x = self.cast(x, "f32")
        return self.pointwise(keyword, [x])

    # --- movement helpers ---------------------------------------------------------------------------
    def axis(self, axis, rank, what="dim"):
        a = self.integer(axis, what)
        if not -rank <= a < max(rank, 1) or (rank == 0 and a not in (0, -1)):
            raise self.error(f"{what} {a} is out of range for a tensor of rank {rank}")
        return a % rank if rank else 0

    def broadcast(self, x, axes):
        return self.op("broadcast", [x], [("axes", sorted(axes))]) if axes else x

    def expand(self, x, shape):
        return self.op("expand", [x], [("shape", list(shape))]) if tuple(shape) != x.shape else x

    def reshape(self, x, shape):
        return self.op("reshape", [x], [("shape", list(shape))]) if tuple(shape) != x.shape else x

    def permute(self, x, perm):
        return self.op("permute", [x], [("perm", list(perm))]) if list(perm) != list(range(x.rank)) else x

    def broadcast_to(self, x, shape):
        """NumPy broadcasting of x to `shape`."""
        if not isinstance(x, TV):
            return x
        lead = len(shape) - x.rank
        if lead < 0:
            raise self.error(f"cannot broadcast a tensor of shape {list(x.shape)} to {list(shape)}")
        x = self.broadcast(x, list(range(lead)))
        return self.expand(x, shape)

    def broadcast_shape(self, operands):
        shapes = [x.shape for x in operands if isinstance(x, TV)]
        rank = max(len(s) for s in shapes)
        out = []
        for d in range(rank):
            extent = 1
            for s in shapes:
                e = s[d - rank + len(s)] if d - rank + len(s) >= 0 else 1
                if e != 1:
                    if extent != 1 and extent != e:
                        raise self.error(f"shapes {[list(s) for s in shapes]} do not broadcast together")
                    extent = e
            out.append(extent)
        return tuple(out)

    def broadcast_all(self, operands):
        """Operands of a pointwise op broadcast to one shape (nvFuser broadcasts implicitly)."""
        if sum(isinstance(x, TV) for x in operands) < 2:
            return operands
        shape = self.broadcast_shape(operands)
        return [self.broadcast_to(x, shape) for x in operands]


def describe(x):
    if isinstance(x, TV):
        return f"a tensor {dtypes.from_seam(x.dtype)!r}{list(x.shape)}"
    if isinstance(x, SV):
        return f"a scalar {dtypes.from_seam(x.dtype)!r}"
    if isinstance(x, list):
        return "a list"
    return f"{type(x).__name__} {x!r}"
