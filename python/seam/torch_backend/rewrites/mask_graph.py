"""A graph node's value in index_algebra's terms, from the nodes that compute it: torch functions, Tensor
methods and operator functions as Dynamo and torch.fx record them, and the aten ops of make_fx's traces.
A node this cannot state (a graph input, an op outside this list, a size that is a node) is Unknown."""

import torch
from torch.fx.node import map_aggregate

from . import index_algebra as ia
from .index_algebra import Unknown


def _sizes(args):
    """Sizes given as varargs (x.expand(2, 3)) or as one sequence (x.expand((2, 3)))."""
    if len(args) == 1 and isinstance(args[0], (tuple, list, torch.Size)):
        return list(args[0])
    return list(args)


def _dtype_of(args, kwargs):
    dtype = kwargs.get("dtype")
    for a in args:
        if isinstance(a, torch.dtype):
            dtype = a
    return dtype


def _same_kind(value, dtype):
    """A cast that keeps the value: a boolean stays boolean, an integer stays an integer."""
    if dtype is None:
        return value
    if isinstance(value, ia.Conjunction) and dtype == torch.bool:
        return value
    if isinstance(value, ia.Affine) and not dtype.is_floating_point and not dtype.is_complex and \
            dtype != torch.bool:
        return value  # (an int32 arange of positions below 2**31 is exact)
    raise Unknown(f"a cast to {dtype}")


class _Device:
    def __repr__(self):
        return "<a device>"


DEVICE = _Device()


def _tensor(x):
    if not isinstance(x, (ia.Affine, ia.Conjunction)):
        raise Unknown(f"{x!r} is not a tensor this algebra knows")
    return x


def _apply(name, args, kwargs):
    if name == "getitem":
        return ia.index(_tensor(args[0]), args[1])
    if name in ia.COMPARISONS:
        return ia.compare(args[0], args[1], ia.COMPARISONS[name])
    if name in ia.ANDS:
        return ia.conjoin(args[0], args[1])
    if name in ia.ORS:
        return ia.disjoin(args[0], args[1])
    if name in ia.NOTS:
        return ia.negate(args[0])
    if name in ia.ADDS:
        if kwargs.get("alpha", 1) != 1 or len(args) > 2:
            raise Unknown("add with alpha")
        return ia.arith(args[0], args[1], ia.ADDS[name])
    if name in ("mul", "__mul__", "__rmul__", "imul"):
        a, b = args[0], args[1]
        if isinstance(a, ia.Conjunction) and isinstance(b, ia.Conjunction):
            return ia.conjoin(a, b)
        if isinstance(a, ia.Affine):
            return ia.scale(a, b)
        if isinstance(b, ia.Affine):
            return ia.scale(b, a)
        raise Unknown("mul")
    if name in ("neg", "__neg__"):
        return ia.scale(_tensor(args[0]), -1)
    if name == "arange":
        return ia.arange(*args, **kwargs)
    if name == "unsqueeze":
        return ia.unsqueeze(_tensor(args[0]), kwargs.get("dim", args[1] if len(args) > 1 else None))
    if name in ("view", "reshape", "_unsafe_view", "_reshape_alias"):
        if name == "_reshape_alias":
            args = args[:2]
        if any(isinstance(a, torch.dtype) for a in args[1:]):
            raise Unknown("a view as another dtype")
        return ia.reshape(_tensor(args[0]), _sizes(args[1:]))
    if name == "expand":
        return ia.expand(_tensor(args[0]), _sizes(args[1:] or [kwargs.get("size")]))
    if name == "permute":
        return ia.permute(_tensor(args[0]), _sizes(args[1:] or [kwargs.get("dims")]))
    if name == "transpose":
        return ia.transpose(_tensor(args[0]), *args[1:3])
    if name == "t":
        return ia.transpose(_tensor(args[0]), 0, 1) if len(args[0].shape) == 2 else _tensor(args[0])
    if name == "slice":  # aten.slice.Tensor(x, dim, start, end, step)
        x = _tensor(args[0])
        dim, start, end, step = (list(args[1:]) + [0, None, None, 1][len(args) - 1:])[:4]
        dim = ia.static_int(dim) % len(x.shape)
        end = None if end is not None and end >= 2 ** 62 else end
        return ia.index(x, (slice(None),) * dim + (slice(start, end, step),))
    if name == "select":
        x = _tensor(args[0])
        dim = ia.static_int(args[1]) % len(x.shape)
        return ia.index(x, (slice(None),) * dim + (ia.static_int(args[2]),))
    if name in ("to", "_to_copy", "type"):
        rest = [a for a in args[1:] if a is not DEVICE and not isinstance(a, (str, torch.device))]
        return _same_kind(_tensor(args[0]), _dtype_of(rest, kwargs))
    if name == "bool":
        if isinstance(args[0], ia.Conjunction):
            return args[0]
        raise Unknown("bool() of a non-boolean")
    if name in ia.SAME_VALUE:
        return _tensor(args[0])
    if name in ("ones", "new_ones", "ones_like", "full", "new_full", "full_like"):
        if _dtype_of((), kwargs) != torch.bool:
            raise Unknown(f"{name} without dtype=torch.bool")
        if name == "ones":
            return ia.filled(args, True)
        if name == "new_ones":
            return ia.filled(args[1:], True)
        if name == "ones_like":
            return ia.filled((_tensor(args[0]).shape,), True)
        if name == "full":
            return ia.filled((args[0],), args[1])
        if name == "new_full":
            return ia.filled((args[1],), args[2])
        return ia.filled((_tensor(args[0]).shape,), args[1])
    if name in ("tril", "triu"):
        diagonal = kwargs.get("diagonal", args[1] if len(args) > 1 else 0)
        return ia.triangle(args[0], diagonal, lower=name == "tril")
    raise Unknown(f"op {name}")


_PLACEMENT = ("device", "layout", "pin_memory", "requires_grad", "memory_format", "non_blocking", "copy")


class MaskReader:
    """Values of a graph's nodes, memoized (every layer's attention reads the same mask)."""

    def __init__(self):
        self._memo = {}

    def value(self, node):
        """The node's Affine or Conjunction; raises Unknown."""
        if node in self._memo:
            found = self._memo[node]
            if isinstance(found, Unknown):
                raise found
            return found
        try:
            result = self._evaluate(node)
        except Unknown as e:
            self._memo[node] = e
            raise
        except (TypeError, ValueError, IndexError, AttributeError) as e:  # an op used in a way not modelled
            self._memo[node] = Unknown(f"{node.name}: {type(e).__name__}: {e}")
            raise self._memo[node] from e
        self._memo[node] = result
        return result

    def read(self, node):
        """The node's value, or None where it cannot be stated."""
        try:
            return self.value(node)
        except Unknown:
            return None

    def _evaluate(self, node):
        name = ia.op_name(node)
        if name is None:
            raise Unknown(f"{node.name}: a {node.op}")
        if name == "getattr" and len(node.args) == 2 and node.args[1] == "device":
            return DEVICE  # x.device: where a mask is made does not change its values
        if name in ia.IN_PLACE:
            written = node.args[0]
            # the node written in place must be read by nothing else: its other readers would see the write
            if isinstance(written, torch.fx.Node) and len(written.users) != 1:
                raise Unknown(f"{node.name}: an in-place op on a value read elsewhere")
        # where and how a tensor is made: not its values (a device may be a node: x.device)
        node_kwargs = {k: v for k, v in node.kwargs.items() if k not in _PLACEMENT}
        args = map_aggregate(node.args, lambda a: self.value(a) if isinstance(a, torch.fx.Node) else a)
        kwargs = map_aggregate(node_kwargs, lambda a: self.value(a) if isinstance(a, torch.fx.Node) else a)
        kwargs = {k: v for k, v in kwargs.items() if k not in _PLACEMENT}
        return _apply(name, list(args), kwargs)


def is_causal_mask(value):
    """Whether a mask is exactly SDPA's is_causal=True for every row and column it covers: True at
    (..., i, j) iff j <= i, the same for every leading position, with i and j both varying (an extent
    of 1 would broadcast one row or column to all)."""
    if not isinstance(value, ia.Conjunction) or len(value.shape) < 2 or len(value.atoms) != 1:
        return False
    (coeffs, const), = value.atoms
    expected = (0,) * (len(value.shape) - 2) + (-1, 1)
    return coeffs == expected and const == 0 and value.shape[-1] > 1 and value.shape[-2] > 1
