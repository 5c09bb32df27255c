"""nvFuser's dtype helpers, for scripts that import nvfuser.pytorch_utils."""

import torch

from seam import DataType
from seam.dtypes import torch_to_datatype

_TO_TORCH = {DataType.Double: torch.float64, DataType.Float: torch.float32, DataType.Half: torch.float16,
             DataType.BFloat16: torch.bfloat16, DataType.Int: torch.int64, DataType.Int32: torch.int32,
             DataType.Bool: torch.bool, DataType.ComplexFloat: torch.complex64,
             DataType.ComplexDouble: torch.complex128}


def torch_dtype_to_nvfuser_dtype(dtype):
    if isinstance(dtype, (bool, int, float, complex)) or dtype in (bool, int, float, complex):
        kind = dtype if isinstance(dtype, type) else type(dtype)
        return {bool: DataType.Bool, int: DataType.Int, float: DataType.Double,
                complex: DataType.ComplexDouble}[kind]
    return torch_to_datatype(dtype)


def nvfuser_dtype_to_torch_dtype(dtype):
    return _TO_TORCH[dtype]
