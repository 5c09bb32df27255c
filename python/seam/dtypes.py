"""nvFuser's DataType names, and how they map onto seam's dtypes and torch's."""

import enum

import torch


class DataType(enum.Enum):
    """The dtypes nvFuser names. seam computes in the first seven and stores Float8_e4m3fn and Float8_e5m2
    (casts and movement only); the rest are accepted as names so that scripts import, and raise
    NotImplementedError where a tensor or scalar would take them."""

    Double = "Double"
    Float = "Float"
    Half = "Half"
    BFloat16 = "BFloat16"
    Int = "Int"
    Int32 = "Int32"
    Bool = "Bool"
    UInt64 = "UInt64"
    Float8_e4m3fn = "Float8_e4m3fn"
    Float8_e5m2 = "Float8_e5m2"
    Float8_e8m0fnu = "Float8_e8m0fnu"
    Float4_e2m1fn = "Float4_e2m1fn"
    Float4_e2m1fn_x2 = "Float4_e2m1fn_x2"
    ComplexFloat = "ComplexFloat"
    ComplexDouble = "ComplexDouble"
    Null = "Null"

    def __repr__(self):
        return f"DataType.{self.name}"

    __str__ = __repr__


# DataType -> seam's short dtype name.
_TO_SEAM = {
    DataType.Double: "f64",
    DataType.Float: "f32",
    DataType.Half: "f16",
    DataType.BFloat16: "bf16",
    DataType.Int: "i64",
    DataType.Int32: "i32",
    DataType.Bool: "bool",
    DataType.Float8_e4m3fn: "f8e4m3fn",
    DataType.Float8_e5m2: "f8e5m2",
}
_FROM_SEAM = {v: k for k, v in _TO_SEAM.items()}

SEAM_TO_TORCH = {
    "f64": torch.float64,
    "f32": torch.float32,
    "f16": torch.float16,
    "bf16": torch.bfloat16,
    "i64": torch.int64,
    "i32": torch.int32,
    "bool": torch.bool,
}
for _name, _seam in (("float8_e4m3fn", "f8e4m3fn"), ("float8_e5m2", "f8e5m2")):
    if isinstance(getattr(torch, _name, None), torch.dtype):  # torch 2.1 and later
        SEAM_TO_TORCH[_seam] = getattr(torch, _name)
TORCH_TO_SEAM = {v: k for k, v in SEAM_TO_TORCH.items()}

_TORCH_TO_DATATYPE = {
    torch.float64: DataType.Double,
    torch.float32: DataType.Float,
    torch.float16: DataType.Half,
    torch.bfloat16: DataType.BFloat16,
    torch.int64: DataType.Int,
    torch.int32: DataType.Int32,
    torch.bool: DataType.Bool,
    torch.complex64: DataType.ComplexFloat,
    torch.complex128: DataType.ComplexDouble,
}
for _name, _member in (("float8_e4m3fn", DataType.Float8_e4m3fn), ("float8_e5m2", DataType.Float8_e5m2),
                       ("uint64", DataType.UInt64)):
    if hasattr(torch, _name):
        _TORCH_TO_DATATYPE[getattr(torch, _name)] = _member

FLOATING = ("f16", "bf16", "f32", "f64", "f8e4m3fn", "f8e5m2")
FLOAT8 = ("f8e4m3fn", "f8e5m2")
HALF = ("f16", "bf16")
INTEGER = ("i32", "i64")


def to_seam(dtype, what="dtype"):
    """seam's name for a DataType (or a torch dtype); NotImplementedError for the ones seam lacks."""
    if isinstance(dtype, torch.dtype):
        dtype = torch_to_datatype(dtype)
    if not isinstance(dtype, DataType):
        raise TypeError(f"{what} must be a DataType, got {dtype!r}")
    if dtype not in _TO_SEAM:
        raise NotImplementedError(
            f"{what} {dtype!r}: seam computes in Double, Float, Half, BFloat16, Int, Int32 and Bool and stores "
            "Float8_e4m3fn and Float8_e5m2 only")
    return _TO_SEAM[dtype]


def torch_dtype(name):
    """The torch dtype of a seam dtype name; NotImplementedError naming the torch that lacks it (f8)."""
    if name not in SEAM_TO_TORCH:
        raise NotImplementedError(f"torch {torch.__version__} has no dtype for seam's {name} "
                                  "(torch.float8_e4m3fn and float8_e5m2 exist from torch 2.1)")
    return SEAM_TO_TORCH[name]


def from_seam(name):
    return _FROM_SEAM[name]


def torch_to_datatype(dtype):
    if dtype not in _TORCH_TO_DATATYPE:
        raise NotImplementedError(f"torch dtype {dtype} has no DataType seam knows")
    return _TORCH_TO_DATATYPE[dtype]


def category(name):
    if name == "bool":
        return 0
    return 1 if name in INTEGER else 2


_WIDTH = {"bool": 1, "i32": 4, "i64": 8, "f16": 2, "bf16": 2, "f32": 4, "f64": 8, "f8e4m3fn": 1, "f8e5m2": 1}


def promote_types(a, b):
    """torch.promote_types on seam's names (docs/IR.md)."""
    if a == b:
        return a
    if a in FLOAT8 or b in FLOAT8:
        raise ValueError(f"no type promotion of {a} and {b}: {a if a in FLOAT8 else b} is a storage dtype "
                         "(cast it to a computing dtype first)")
    ca, cb = category(a), category(b)
    if ca != cb:
        return a if ca > cb else b
    if {a, b} == {"f16", "bf16"}:
        return "f32"
    return a if _WIDTH[a] >= _WIDTH[b] else b


def result_type(operands):
    """torch.result_type over (dtype, tier) pairs: tier 2 tensors of rank >= 1, 1 rank-0 tensors, 0
    scalars. The strongest tier present decides; a weaker one changes the result only when its category is
    higher (then a scalar counts as the default dtype of its category: f32, i64)."""
    by_tier = {}
    for dtype, tier in operands:
        by_tier[tier] = promote_types(by_tier[tier], dtype) if tier in by_tier else dtype
    result = None
    for tier in (2, 1, 0):
        if tier not in by_tier:
            continue
        dtype = by_tier[tier]
        if result is None:
            result = dtype
        elif category(dtype) > category(result):
            result = {1: "i64", 2: "f32"}[category(dtype)] if tier == 0 else dtype
    return result
