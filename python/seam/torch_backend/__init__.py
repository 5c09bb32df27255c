"""seam as a torch.compile backend: aten graphs (from Dynamo + AOT autograd, or from make_fx /
functorch's aot_function) partitioned into regions seam compiles and PyTorch ops between them.

    import seam                     # registers backend="seam" where torch has Dynamo
    model = torch.compile(model, backend="seam")

Layout: settings (options), registry + converters/ (one converter per aten overload, each with its
supports-check), decompositions, partition (regions), translate (a region to a fusion, built with the
core's FusionBuilder), runtime (SeamRegion: one compiled specialization per input signature), precompile
(regions compiled ahead on threads), compile / backend (the entry points), cuda_graphs
(mode="reduce-overhead"), registration (backend="seam"). It imports the core of python/seam, never the
nvFuser-compatible frontend (definition.py). docs/TORCH_BACKEND.md describes it.

The names below load on first use, so that `import seam` (which registers the backend) stays cheap."""

import importlib

_EXPORTS = {
    "aot_compile": "compile", "compile_aten_graph": "compile", "REPORTS": "compile",
    "partition_graph": "partition", "CompilationSettings": "settings", "STATS": "runtime", "REGISTRY": "registry",
    "register_dynamo_backend": "registration", "seam_backend": "backend",
}

_SUBMODULES = {"backend", "compile", "context", "converters", "cuda_graphs", "decompositions", "node_meta",
               "partition", "precompile", "registration", "registry", "runtime", "settings", "translate"}

__all__ = sorted(_EXPORTS) + ["claimed_ops"]


def claimed_ops():
    """Every aten overload seam converts (that this torch has)."""
    importlib.import_module(".converters", __name__)
    return importlib.import_module(".registry", __name__).REGISTRY.names()


def __getattr__(name):
    if name in _EXPORTS:
        if name in ("REGISTRY", "partition_graph"):
            importlib.import_module(".converters", __name__)  # registers every converter
        module = importlib.import_module(f".{_EXPORTS[name]}", __name__)
        value = getattr(module, name)
        globals()[name] = value
        return value
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
