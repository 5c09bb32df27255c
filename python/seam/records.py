"""Recording a definition: each call (define_tensor, define_scalar, define_vector, an fd.ops op,
add_output) becomes a Record with its arguments as given (handles inside), after the checks that need
nothing but the call: argument kinds, Python ints that do not fit 64 bits, define_tensor's overloads."""

import math

import torch

from . import dtypes
from .descriptors import allocation_order, compute_tensor_descriptor
from .dtypes import DataType
from .handles import Handle


class Record:
    """One call of the definition: its kind, its arguments (handles inside), the handles it returned and,
    for inputs, its first position among execute()'s flattened inputs."""

    __slots__ = ("kind", "spec", "args", "outputs", "slot", "text")

    def __init__(self, kind, args, outputs, spec=None, slot=None):
        self.kind, self.args, self.outputs, self.spec, self.slot = kind, args, outputs, spec, slot
        self.text = None

    @property
    def is_cpu_scalar_input(self):
        """A define_tensor(is_cpu=True), or a builder's 0-dim CPU tensor: a 0-dim CPU tensor that may join
        a fusion on another device."""
        if self.kind == "input_tensor":
            return not self.args[0] and self.args[3].type == "cpu"
        return self.kind == "define_tensor" and self.args[3]


def format_value(value):
    if isinstance(value, Handle):
        return value.name
    if isinstance(value, DataType):
        return repr(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return f'float("{value}")'
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    return repr(value)


# Keywords that scripts use for a parameter under another name (retired or per-overload spellings).
KEYWORD_ALIASES = (("dim", "dims"), ("axes", "dims"), ("output_shape", "shape"))


def normalize(values):
    """Arguments as recorded: tuples and torch.Size become lists (of ints and handles)."""
    out = []
    for v in values:
        if isinstance(v, (tuple, torch.Size)):
            v = list(v)
        if isinstance(v, list):
            v = [list(e) if isinstance(e, (tuple, torch.Size)) else e for e in v]
        out.append(v)
    return out


# Parameters that take lists (shapes, dims, index lists, the tensors of cat); any other is an operand or
# an option, which a list cannot be.
_LIST_PARAMS = frozenset("broadcast_dims dims end_indices is_broadcast_dim legacy new_shape pad_widths shape "
                         "start_indices stride_order strides tensors".split())
_REDUCTIONS = frozenset("sum prod max min mean var var_mean welford".split())
# Seeds and offsets count modulo 2^64 (ops_random.py), so they may be unsigned 64-bit numbers.
_UNSIGNED_PARAMS = frozenset(("rng_seed", "rng_offset"))


def check_arguments(op_name, arguments):
    """What is wrong with an op's arguments that is known when it is defined: a torch tensor or list where
    an operand goes, a Python int beyond 64 bits, an empty list of reduction axes."""
    for name, value in arguments.items():
        where = f"fd.ops.{op_name}: argument {name}"
        if name in _LIST_PARAMS or (op_name == "at" and name == "arg"):
            items = value if isinstance(value, (list, tuple, torch.Size)) else [value]
        elif isinstance(value, (list, tuple)):
            raise TypeError(f"{where} is a {type(value).__name__}; it takes a Tensor, a Scalar or a number")
        else:
            items = [value]
        for item in items:
            if isinstance(item, torch.Tensor):
                raise TypeError(f"{where} is a torch.Tensor; a tensor enters a definition as an input "
                                "(fd.define_tensor or fd.from_pytorch)")
            if isinstance(item, complex):
                raise NotImplementedError(f"{where} is the complex number {item!r}; seam has no complex dtypes")
            if isinstance(item, int) and not isinstance(item, bool):
                low, end = (-(1 << 63), 1 << 64) if name in _UNSIGNED_PARAMS else (-(1 << 63), 1 << 63)
                if not low <= item < end:
                    raise ValueError(f"{where}: the Python int {item} does not fit 64 bits")
        if op_name in _REDUCTIONS and name == "dims" and isinstance(value, (list, tuple)) and not value:
            raise ValueError(f"fd.ops.{op_name}: dims is empty; as in nvFuser, a reduction needs at least one "
                             "axis (leave dims out to reduce every axis)")


def handles_in(values):
    for v in values:
        if isinstance(v, Handle):
            yield v
        elif isinstance(v, list):
            yield from handles_in(v)


def parse_define_tensor(args, kwargs):
    """The three define_tensor overloads (by argument types) as (shape, contiguity, dtype, is_cpu,
    stride_order) with contiguity in allocation order."""
    kwargs = dict(kwargs)
    for old, new in (("symbolic_sizes", "shape"), ("contiguous", "contiguity")):
        if old in kwargs:
            kwargs[new] = kwargs.pop(old)
    strided = "sizes" in kwargs or "strides" in kwargs
    if not strided and len(args) >= 2 and isinstance(args[1], (list, tuple)) and any(
            isinstance(e, int) and not isinstance(e, bool) and e not in (0, 1) for e in args[1]):
        strided = True
    if strided:
        names = ["sizes", "strides", "dtype", "static_sizes", "is_cpu"]
        params = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names or k in params:
                raise TypeError(f"define_tensor(sizes, strides, dtype, static_sizes, is_cpu): unexpected or "
                                f"repeated argument '{k}'")
            params[k] = v
        sizes, strides = list(params.get("sizes", [])), list(params.get("strides", []))
        if len(sizes) != len(strides):
            raise ValueError(f"define_tensor: {len(sizes)} sizes and {len(strides)} strides")
        contiguity, stride_order = compute_tensor_descriptor(sizes, strides)
        static = bool(params.get("static_sizes", False))
        shape = [s if static or s == 1 else -1 for s in sizes]
        # The stride_order is kept (printed) even when row-major, as nvFuser prints from_pytorch inputs.
        return (shape, contiguity, params.get("dtype", DataType.Float), bool(params.get("is_cpu", False)),
                stride_order)
    names = ["shape", "contiguity", "dtype", "is_cpu", "stride_order"]
    params = dict(zip(names, args))
    if len(args) > len(names):
        raise TypeError(f"define_tensor takes at most {len(names)} positional arguments")
    for k, v in kwargs.items():
        if k not in names or k in params:
            raise TypeError(f"define_tensor(shape, contiguity, dtype, is_cpu, stride_order): unexpected or "
                            f"repeated argument '{k}'")
        params[k] = v
    if "shape" not in params:
        raise TypeError("define_tensor needs a shape (or sizes= and strides=)")
    shape = params["shape"]
    if isinstance(shape, int):  # pre-2023 scripts: define_tensor(ndims, dtype)
        raise TypeError("define_tensor(ndims, ...) is nvFuser's retired form; give shape=[-1, ...]")
    shape = [int(s) for s in shape]
    for d, s in enumerate(shape):
        if s < -1:
            raise ValueError(f"define_tensor: shape entry {s} in dim {d} (use -1 for a symbolic extent)")
    rank = len(shape)
    contiguity = params.get("contiguity", None)
    stride_order = [int(s) for s in (params.get("stride_order") or [])]
    if stride_order and sorted(s % rank for s in stride_order) != list(range(rank)):
        raise ValueError(f"define_tensor: stride_order {stride_order} is not a permutation of {rank} dims")
    order = allocation_order(stride_order, rank)
    if contiguity is None or isinstance(contiguity, (bool, int)):
        flag = bool(contiguity) if contiguity is not None else False
        contiguity = [None if shape[d] == 1 else flag for d in order]
    else:
        contiguity = [None if c is None else bool(c) for c in contiguity]
        if len(contiguity) != rank:
            raise ValueError(f"define_tensor: {len(contiguity)} contiguity entries for {rank} dims")
    # contiguity None on an extent other than 1 is an expanded broadcast (stride 0): with a static extent,
    # the input must have that extent (nvFuser's expanded dims of a known size).
    dtype = params.get("dtype", DataType.Float)
    if isinstance(dtype, torch.dtype):
        dtype = dtypes.torch_to_datatype(dtype)
    return shape, contiguity, dtype, bool(params.get("is_cpu", False)), stride_order
