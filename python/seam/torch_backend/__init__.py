"""seam as a torch.compile backend: aten graphs (from Dynamo + AOT autograd, or from make_fx /
functorch's aot_function) partitioned into regions seam compiles and PyTorch ops between them.

    import seam                     # registers backend="seam" where torch has Dynamo
    model = torch.compile(model, backend="seam")

Layout: settings (options), registry + converters/ (one converter per aten overload, each with its
supports-check), decompositions, partition (regions), translate (a region to a FusionDefinition),
runtime (SeamRegion: one compiled definition per input signature), compile / backend (the entry points).
docs/TORCH_BACKEND.md describes it."""

from . import converters  # noqa: F401  (registers every converter)
from .compile import REPORTS, aot_compile, compile_aten_graph
from .partition import partition
from .registration import register_dynamo_backend
from .registry import REGISTRY
from .runtime import STATS
from .settings import CompilationSettings


def claimed_ops():
    """Every aten overload seam converts (that this torch has)."""
    return REGISTRY.names()


def seam_backend(gm, example_inputs, options=None, **kwargs):
    from .backend import seam_backend as backend
    return backend(gm, example_inputs, options=options, **kwargs)


__all__ = ["aot_compile", "compile_aten_graph", "partition", "CompilationSettings", "claimed_ops", "STATS", "REPORTS",
           "seam_backend", "register_dynamo_backend"]
