"""What a mask built from positions is, read from the graph alone: integer tensors that are affine in their
element's position (arange, plus broadcasting, slicing and integer arithmetic) and boolean tensors that
are conjunctions of `affine <= 0` over them (comparisons, and, not, tril/triu of ones). Anything else (a
tensor read from a graph input, a gather, a float mask, a size not known as an int) is not understood,
and whoever asked learns that: `evaluate` returns None.

An affine value is exact for every position, so a conclusion holds for the whole tensor, not for samples
of it. An extent of 1 has a single position, 0: its coefficient is folded into the constant, which is what
broadcasting it to any extent means."""

import operator

import torch


class Unknown(Exception):
    """A node whose value this algebra cannot state."""


class Affine:
    """An integer tensor: element at position x is const + sum(coeffs[d] * x[d])."""

    __slots__ = ("shape", "coeffs", "const")

    def __init__(self, shape, coeffs, const):
        self.shape = tuple(shape)
        self.coeffs = tuple(0 if n == 1 else c for n, c in zip(self.shape, coeffs))
        self.const = const

    def reshaped(self, shape, coeffs, const=None):
        return Affine(shape, coeffs, self.const if const is None else const)


class Conjunction:
    """A boolean tensor: True at x where every atom (coeffs, const) has sum(coeffs[d] * x[d]) + const <= 0.
    No atoms: all True."""

    __slots__ = ("shape", "atoms")

    def __init__(self, shape, atoms):
        self.shape = tuple(shape)
        kept = set()
        for coeffs, const in atoms:
            coeffs = tuple(0 if n == 1 else c for n, c in zip(self.shape, coeffs))
            if not any(coeffs):
                if const <= 0:
                    continue  # always true
                kept = {((0,) * len(self.shape), 1)}  # always false
                break
            kept.add((coeffs, const))
        self.atoms = frozenset(kept)

    @property
    def always_false(self):
        return any(not any(c) for c, _ in self.atoms)

    def reshaped(self, shape, remap):
        return Conjunction(shape, [(remap(c), k) for c, k in self.atoms])


def static_int(x):
    if isinstance(x, bool) or not isinstance(x, int):
        raise Unknown(f"{x!r} is not a known integer")
    return x


def _broadcast_shapes(a, b):
    rank = max(len(a), len(b))
    a, b = (1,) * (rank - len(a)) + tuple(a), (1,) * (rank - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            raise Unknown(f"shapes {a} and {b} do not broadcast")
        out.append(max(x, y))
    return tuple(out)


def _aligned(coeffs, rank):
    return (0,) * (rank - len(coeffs)) + tuple(coeffs)


def _as_affine(x, shape):
    """An integer operand over `shape` (a Python int is a constant)."""
    if isinstance(x, Affine):
        return _aligned(x.coeffs, len(shape)), x.const
    return (0,) * len(shape), static_int(x)


def arith(a, b, sign):
    if not isinstance(a, Affine) and not isinstance(b, Affine):
        raise Unknown("arithmetic without a tensor")
    shape = _broadcast_shapes(a.shape if isinstance(a, Affine) else (), b.shape if isinstance(b, Affine) else ())
    ca, ka = _as_affine(a, shape)
    cb, kb = _as_affine(b, shape)
    return Affine(shape, [x + sign * y for x, y in zip(ca, cb)], ka + sign * kb)


def scale(a, factor):
    factor = static_int(factor)
    return Affine(a.shape, [c * factor for c in a.coeffs], a.const * factor)


def compare(a, b, op):
    """a op b for op in le lt ge gt, as one atom (integers: a < b is a - b + 1 <= 0)."""
    if op in ("ge", "gt"):
        a, b, op = b, a, "le" if op == "ge" else "lt"
    difference = arith(a, b, -1)
    return Conjunction(difference.shape, [(difference.coeffs, difference.const + (1 if op == "lt" else 0))])


def conjoin(a, b):
    a, b = _as_mask(a), _as_mask(b)
    shape = _broadcast_shapes(a.shape, b.shape)
    return Conjunction(shape, [(_aligned(c, len(shape)), k) for c, k in a.atoms | b.atoms])


def disjoin(a, b):
    a, b = _as_mask(a), _as_mask(b)
    shape = _broadcast_shapes(a.shape, b.shape)
    for x, y in ((a, b), (b, a)):
        if not x.atoms:
            return Conjunction(shape, [])
        if x.always_false:
            return Conjunction(shape, [(_aligned(c, len(shape)), k) for c, k in y.atoms])
    raise Unknown("a disjunction of two conditions")


def negate(a):
    a = _as_mask(a)
    if not a.atoms:
        return Conjunction(a.shape, [((0,) * len(a.shape), 1)])
    if a.always_false:
        return Conjunction(a.shape, [])
    if len(a.atoms) != 1:
        raise Unknown("the negation of a conjunction")
    (coeffs, const), = a.atoms
    return Conjunction(a.shape, [(tuple(-c for c in coeffs), 1 - const)])  # not (e <= 0) is -e + 1 <= 0


def _as_mask(x):
    if isinstance(x, Conjunction):
        return x
    if isinstance(x, bool):
        return Conjunction((), [] if x else [((), 1)])
    raise Unknown(f"{type(x).__name__} is not a boolean tensor")


# --- views --------------------------------------------------------------------------------------------

def _with_axes(value, shape, picks, const_delta=0):
    """value seen with a new shape whose axis i reads old axis picks[i] scaled (old, scale), or nothing
    (None: a new axis)."""
    def remap(coeffs):
        return tuple(0 if p is None else coeffs[p[0]] * p[1] for p in picks)

    def delta(coeffs):
        return const_delta(coeffs) if callable(const_delta) else const_delta

    if isinstance(value, Affine):
        return Affine(shape, remap(value.coeffs), value.const + delta(value.coeffs))
    return Conjunction(shape, [(remap(c), k + delta(c)) for c, k in value.atoms])


def index(value, key):
    """value[key] for None, slices with int bounds, ints and Ellipsis."""
    key = key if isinstance(key, tuple) else (key,)
    consumed = sum(1 for k in key if k is not None and k is not Ellipsis)
    if sum(1 for k in key if k is Ellipsis) > 1 or consumed > len(value.shape):
        raise Unknown(f"index {key!r}")
    if Ellipsis in key:
        at = key.index(Ellipsis)
        key = key[:at] + (slice(None),) * (len(value.shape) - consumed) + key[at + 1:]
    key = key + (slice(None),) * (len(value.shape) - sum(1 for k in key if k is not None))
    shape, picks, offsets, axis = [], [], [], 0
    for k in key:
        if k is None:
            shape.append(1)
            picks.append(None)
        elif isinstance(k, slice):
            n = value.shape[axis]
            start, stop, step = (k.start, k.stop, k.step)
            for bound in (start, stop, step):
                if bound is not None:
                    static_int(bound)
            start, stop, step = slice(start, stop, step).indices(n)
            shape.append(len(range(start, stop, step)))
            picks.append((axis, step))
            offsets.append((axis, start))
            axis += 1
        elif isinstance(k, int) and not isinstance(k, bool):
            n = value.shape[axis]
            if not -n <= k < n:
                raise Unknown(f"index {k} out of range")
            offsets.append((axis, k % n))
            axis += 1
        else:
            raise Unknown(f"index by {type(k).__name__}")
    return _with_axes(value, shape, picks, lambda coeffs: sum(coeffs[a] * s for a, s in offsets))


def unsqueeze(value, dim):
    rank = len(value.shape) + 1
    dim = static_int(dim) % rank
    key = (slice(None),) * dim + (None,)
    return index(value, key)


def reshape(value, sizes):
    """Only a reshape that adds or removes extents of 1 (the others keep their order)."""
    sizes = [static_int(s) for s in sizes]
    if sizes.count(-1) == 1:
        known = 1
        for s in sizes:
            known *= s if s != -1 else 1
        total = 1
        for s in value.shape:
            total *= s
        if known == 0 or total % known:
            raise Unknown("reshape")
        sizes[sizes.index(-1)] = total // known
    old = [(a, n) for a, n in enumerate(value.shape) if n != 1]
    new = [(a, n) for a, n in enumerate(sizes) if n != 1]
    if [n for _, n in old] != [n for _, n in new]:
        raise Unknown(f"a reshape of {value.shape} to {tuple(sizes)} that moves elements")
    picks = [None] * len(sizes)
    for (old_axis, _), (new_axis, _) in zip(old, new):
        picks[new_axis] = (old_axis, 1)
    return _with_axes(value, sizes, picks)


def expand(value, sizes):
    sizes = [static_int(s) for s in sizes]
    rank = len(value.shape)
    if len(sizes) < rank:
        raise Unknown("expand to fewer dims")
    lead = len(sizes) - rank
    shape, picks = [], []
    for i, s in enumerate(sizes):
        if i < lead:
            if s < 0:
                raise Unknown("expand: -1 for a new dim")
            shape.append(s)
            picks.append(None)
            continue
        n = value.shape[i - lead]
        if s == -1 or s == n:
            shape.append(n)
        elif n == 1:
            shape.append(s)
        else:
            raise Unknown(f"expand of extent {n} to {s}")
        picks.append((i - lead, 1))
    return _with_axes(value, shape, picks)


def permute(value, dims):
    rank = len(value.shape)
    dims = [static_int(d) % max(rank, 1) for d in dims]
    if sorted(dims) != list(range(rank)):
        raise Unknown(f"permute {dims}")
    return _with_axes(value, [value.shape[d] for d in dims], [(d, 1) for d in dims])


def transpose(value, a, b):
    rank = len(value.shape)
    dims = list(range(rank))
    a, b = static_int(a) % rank, static_int(b) % rank
    dims[a], dims[b] = dims[b], dims[a]
    return permute(value, dims)


def triangle(value, diagonal, lower):
    """tril/triu of a boolean tensor: over the last two axes (i, j), keeps j - i <= diagonal (tril) or
    j - i >= diagonal (triu)."""
    value = _as_mask(value)
    rank = len(value.shape)
    if rank < 2:
        raise Unknown("tril/triu of a tensor of rank < 2")
    k = static_int(diagonal)
    coeffs = [0] * rank
    sign = 1 if lower else -1
    coeffs[-1], coeffs[-2] = sign, -sign
    atom = (tuple(coeffs), -k if lower else k)
    return Conjunction(value.shape, list(value.atoms) + [atom])


def arange(*args, dtype=None, start=None, end=None, step=None, **_ignored):
    if dtype is not None and (dtype.is_floating_point or dtype.is_complex or dtype == torch.bool):
        raise Unknown(f"arange of {dtype}")
    values = list(args)
    if start is not None or end is not None or step is not None:
        values = [v for v in (start if start is not None else 0, end, step if step is not None else 1)]
        if end is None:
            raise Unknown("arange without end")
    values = [static_int(v) for v in values]
    if len(values) == 1:
        values = [0, values[0], 1]
    elif len(values) == 2:
        values = values + [1]
    begin, stop, stride = values
    if stride == 0:
        raise Unknown("arange step 0")
    return Affine((len(range(begin, stop, stride)),), (stride,), begin)


def filled(shape, value):
    """ones/full/new_ones of a boolean: all True or all False."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list, torch.Size)):
        shape = tuple(shape[0])
    shape = tuple(static_int(s) for s in shape)
    if value is True:
        return Conjunction(shape, [])
    if value is False:
        return Conjunction(shape, [((0,) * len(shape), 1)])
    raise Unknown(f"a tensor filled with {value!r}")


# Names of ops (torch functions, Tensor methods, operator functions, aten overload packets) -> meaning.
COMPARISONS = {"le": "le", "lt": "lt", "ge": "ge", "gt": "gt", "__le__": "le", "__lt__": "lt", "__ge__": "ge",
               "__gt__": "gt"}
ANDS = {"and_", "iand", "__and__", "__iand__", "bitwise_and", "logical_and", "bitwise_and_", "logical_and_"}
ORS = {"or_", "ior", "__or__", "__ior__", "bitwise_or", "logical_or"}
NOTS = {"invert", "__invert__", "bitwise_not", "logical_not"}
ADDS = {"add": 1, "iadd": 1, "__add__": 1, "__radd__": 1, "add_": 1, "__iadd__": 1,
        "sub": -1, "isub": -1, "__sub__": -1, "sub_": -1, "__isub__": -1}
IN_PLACE = {"iadd", "isub", "add_", "sub_", "__iadd__", "__isub__", "iand", "__iand__", "bitwise_and_",
            "logical_and_", "ior", "__ior__"}
SAME_VALUE = {"contiguous", "clone", "detach", "alias", "lift_fresh_copy", "cuda", "cpu"}
_OPERATOR_NAMES = {getattr(operator, n): n for n in dir(operator) if not n.startswith("_")}


def op_name(node):
    """A node's op as a plain name (le, expand, getitem, arange, ...), or None."""
    if node.op == "call_method":
        return node.target
    if node.op != "call_function":
        return None
    target = node.target
    if target in _OPERATOR_NAMES:
        return _OPERATOR_NAMES[target]
    packet = getattr(target, "overloadpacket", None)  # aten.le.Tensor -> le
    if packet is not None:
        return packet.__name__
    return getattr(target, "__name__", None)
