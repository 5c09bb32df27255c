"""`import nvfuser_direct` gives seam's frontend (python/seam) when python/ is on PYTHONPATH: the same
FusionDefinition answers to nvFuser's current module name."""

from nvfuser import *  # noqa: F401,F403
from nvfuser import ParallelType, __version__, execute_with_dtensors  # noqa: F401
from seam import DataType, FusionDefinition, compute_tensor_descriptor, version  # noqa: F401
