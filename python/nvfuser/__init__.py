"""`import nvfuser` gives seam's frontend (python/seam) when python/ is on PYTHONPATH, so that scripts
written for nvFuser's legacy module run on seam unchanged."""

import enum

from seam import (DataType, FusionCache, FusionDefinition, Scalar, SeamError, Tensor, Vector,  # noqa: F401
                  clear_cuda_cache, clone, compute_contiguity, compute_tensor_descriptor,
                  disable_automatic_serialization, enable_automatic_serialization, version)
from seam import __version__  # noqa: F401


class ParallelType(enum.Enum):
    """Names scripts import; seam schedules its own kernels, so they select nothing."""

    mesh_x = "mesh_x"
    stream = "stream"


def execute_with_dtensors(fd, inputs):
    raise NotImplementedError("execute_with_dtensors: seam runs on one device (no multidevice support)")
