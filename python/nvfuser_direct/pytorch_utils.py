"""nvfuser_direct.pytorch_utils: the same helpers as nvfuser.pytorch_utils."""

from nvfuser.pytorch_utils import nvfuser_dtype_to_torch_dtype, torch_dtype_to_nvfuser_dtype  # noqa: F401
