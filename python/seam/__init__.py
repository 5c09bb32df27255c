"""seam's Python frontend: nvFuser's FusionDefinition API on seam, for PyTorch tensors.

    from seam import FusionDefinition, DataType
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
        fd.add_output(fd.ops.exp(t0))
    out, = fd.execute([torch.randn(4, 8)])

docs/PYTHON.md says what is supported and how it maps onto seam's IR. The frontend (definition.py) loads
on first use of its names, so that the torch.compile backend, which builds through the core
(fusion_builder.py), does not load it."""

import importlib

from ._native import SeamError, native
from .cache import FusionCache
from .descriptors import compute_contiguity, compute_tensor_descriptor
from .dtypes import DataType
from .handles import Scalar, Tensor, Vector

from .version import VERSION as __version__
from .torch_backend.registration import register_dynamo_backend as _register_dynamo_backend

_register_dynamo_backend()  # torch.compile(model, backend="seam"), where torch has Dynamo


_FRONTEND = {"FusionDefinition": "definition", "Operators": "recording", "clone": "definition"}


def __getattr__(name):
    if name in _FRONTEND:
        value = getattr(importlib.import_module(f".{_FRONTEND[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def version():
    """A version nvFuser's users compare against (Thunder wants at least 0.2.34)."""
    return __version__


def cuda_available():
    return native.cuda_available()


def clear_cuda_cache():
    pass


def enable_automatic_serialization():
    """nvFuser saves its cache at exit; seam's compiled kernels already live in its disk cache."""


def disable_automatic_serialization():
    pass


__all__ = ["FusionDefinition", "DataType", "Tensor", "Scalar", "Vector", "FusionCache", "SeamError",
           "compute_tensor_descriptor", "compute_contiguity", "version", "Operators", "clear_cuda_cache", "clone",
           "enable_automatic_serialization", "disable_automatic_serialization"]
