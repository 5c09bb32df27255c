"""What a traced aten graph records about each node's value: dtype, shape, device. Dynamo and make_fx
store a (fake) tensor under meta["val"]; older tracers a TensorMetadata under meta["tensor_meta"]."""

import torch

# The dtypes seam computes in.
SEAM_DTYPES = (torch.float64, torch.float32, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.bool)
FLOATING = (torch.float64, torch.float32, torch.float16, torch.bfloat16)


class TensorInfo:
    __slots__ = ("dtype", "shape", "device")

    def __init__(self, dtype, shape, device):
        self.dtype, self.shape, self.device = dtype, tuple(shape), device

    @property
    def rank(self):
        return len(self.shape)

    def static_extent(self, axis):
        """One extent as an int, or None where it is symbolic."""
        return _static(self.shape[axis])

    def static_shape(self):
        """The shape as ints, or None where an extent is symbolic."""
        out = tuple(_static(s) for s in self.shape)
        return None if None in out else out

    def static_numel(self):
        """The number of elements, or None where an extent is symbolic."""
        shape = self.static_shape()
        if shape is None:
            return None
        count = 1
        for e in shape:
            count *= e
        return count


def _static(extent):
    if isinstance(extent, int):
        return extent
    try:  # a SymInt that Dynamo specialized prints as its value
        return int(str(extent))
    except ValueError:
        return None


def _info(value):
    if isinstance(value, torch.Tensor):
        device = value.device.type if value.device.type != "meta" else None
        return TensorInfo(value.dtype, value.shape, device)
    if hasattr(value, "dtype") and hasattr(value, "shape"):  # TensorMetadata (no device recorded)
        return TensorInfo(value.dtype, value.shape, None)
    return None


def value_info(node):
    """TensorInfo of a node's single tensor value, a tuple of them (None entries for non-tensors) for a
    multi-output op, or None when the graph recorded nothing usable."""
    if not hasattr(node, "meta"):
        return None
    for key in ("val", "tensor_meta"):
        value = node.meta.get(key)
        if value is None:
            continue
        info = _info(value)  # before the tuple case: TensorMetadata is a NamedTuple
        if info is not None:
            return info
        if isinstance(value, (tuple, list)):
            return tuple(_info(v) for v in value)
    return _from_getitems(node)


def _from_getitems(node):
    """A multi-output node some tracers record nothing for (torch 1.13's make_fx): its values' info as
    its getitem users recorded it, None for values nobody reads."""
    import operator

    found = {}
    for user in getattr(node, "users", ()):
        if user.op == "call_function" and user.target is operator.getitem and isinstance(user.args[1], int):
            found[user.args[1]] = tensor_info(user)
    if not any(v is not None for v in found.values()):
        return None
    return tuple(found.get(i) for i in range(max(found) + 1))


def recorded_strides(node):
    """The strides the graph recorded for a node's single tensor value (what eager gives it), as ints,
    or None where nothing is recorded. A symbolic stride (Dynamo's dynamic shapes) counts by its hint:
    only the order of the strides is used."""
    for key in ("val", "tensor_meta"):
        value = node.meta.get(key) if hasattr(node, "meta") else None
        if value is None:
            continue
        stride = value.stride() if isinstance(value, torch.Tensor) else getattr(value, "stride", None)
        if stride is None or callable(stride):
            return None
        out = tuple(_hint(s) for s in stride)
        return None if None in out else out
    return None


def _hint(extent):
    if isinstance(extent, int):
        return extent
    hint = getattr(getattr(extent, "node", None), "hint", None)  # a SymInt's example value
    return hint if isinstance(hint, int) else _static(extent)


def stride_order(shape, strides):
    """nvFuser's stride_order for a dense layout with these strides (entry i: how many dims lie inside
    dim i), or None when the strides are not a permutation of a dense layout (overlapping, gaps) or the
    shape is symbolic. Size-1 dims go where their recorded stride puts them."""
    shape = tuple(_hint(e) for e in shape)
    if None in shape or len(shape) != len(strides) or 0 in shape:  # no elements: any layout will do
        return None
    # innermost first: smaller stride, then (as PyTorch's contiguous layout does) the later dim
    inner_first = sorted(range(len(shape)), key=lambda d: (strides[d], -d))
    expected = 1
    for d in inner_first:
        if shape[d] != 1 and strides[d] != expected:
            return None
        expected *= shape[d]
    order = [0] * len(shape)
    for position, d in enumerate(inner_first):
        order[d] = position
    return order


def tensor_info(node):
    info = value_info(node)
    return info if isinstance(info, TensorInfo) else None


def is_int_value(node):
    """A node whose value is an integer (a SymInt from sym_size or arithmetic on one)."""
    value = node.meta.get("val") if hasattr(node, "meta") else None
    return isinstance(value, int) or type(value).__name__ in ("SymInt", "PySymInt")
