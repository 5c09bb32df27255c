"""`import nvfuser_direct` gives nvFuser's current frontend on seam (python/seam/direct.py) when python/ is
on PYTHONPATH: FusionDefinition, TensorView, LRUCache, FusionExecutorCache, and the module functions and
dtype names that nvFuser's module exports, and its profiler (PythonProfiler, get_fusion_profile)."""

from nvfuser import ParallelType, execute_with_dtensors  # noqa: F401
from seam import (DataType, FusionCache, SeamError, clear_cuda_cache, compute_contiguity,  # noqa: F401
                  compute_tensor_descriptor, version)
from seam import __version__  # noqa: F401
from seam.direct import Fusion, FusionDefinition, FusionExecutorCache, LRUCache, TensorView, Val  # noqa: F401
from seam.handles import Scalar, Tensor, Vector  # noqa: F401
from seam.profile import (FusionProfile, KernelProfile, PythonProfiler, get_fusion_profile,  # noqa: F401
                          reset_profiler)
