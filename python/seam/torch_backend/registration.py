"""Registers the "seam" backend with Dynamo on `import seam`, where torch has Dynamo (torch 1.13 does
not: there aot_compile is the way in)."""

import importlib.util


def has_dynamo():
    try:
        return importlib.util.find_spec("torch._dynamo") is not None
    except (ImportError, ValueError):
        return False


def register_dynamo_backend(name="seam"):
    """True when the backend is registered (or already was)."""
    if not has_dynamo():
        return False
    from torch._dynamo import list_backends, register_backend

    from .backend import seam_backend

    if name in list_backends(exclude_tags=()):
        return True
    register_backend(compiler_fn=seam_backend, name=name)
    return True
