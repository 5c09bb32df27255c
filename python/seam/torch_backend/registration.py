"""Registers the "seam" backend with Dynamo on `import seam`, where torch has Dynamo (torch 1.13 does
not: there aot_compile is the way in). Importing torch._dynamo costs a second or more, which users of the
FusionDefinition frontend should not pay: when Dynamo is not imported yet, the registration waits for its
import (torch.compile imports it), through a one-shot import hook."""

import importlib.abc
import importlib.machinery
import importlib.util
import logging
import sys

log = logging.getLogger("seam.torch_backend")

DYNAMO = "torch._dynamo"


def has_dynamo():
    if DYNAMO in sys.modules:
        return True
    try:
        return importlib.util.find_spec(DYNAMO) is not None
    except (ImportError, ValueError):
        return False


def register_now(name="seam"):
    """Registers the backend (Dynamo gets imported); True when it is registered."""
    from torch._dynamo import list_backends, register_backend

    from .backend import seam_backend

    if name not in list_backends(exclude_tags=()):
        register_backend(compiler_fn=seam_backend, name=name)
    return True


class _LoaderThenCall(importlib.abc.Loader):
    """Runs the module's own loader, then `callback` (failures logged, never raised into the import)."""

    def __init__(self, loader, callback):
        self._loader, self._callback = loader, callback

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def __getattr__(self, name):  # anything else a loader answers (get_source, is_package, ...)
        return getattr(self._loader, name)

    def exec_module(self, module):
        # the module keeps its own loader, as if this one had never been there
        module.__loader__ = self._loader
        if getattr(module, "__spec__", None) is not None:
            module.__spec__.loader = self._loader
        self._loader.exec_module(module)
        try:
            self._callback()
        except Exception as e:  # registering must never break the user's import
            log.warning("seam: registering the torch.compile backend failed: %s: %s", type(e).__name__, e)


class AfterImport(importlib.abc.MetaPathFinder):
    """A one-shot meta path finder: once `module` is imported, `callback` runs."""

    def __init__(self, module, callback):
        self.module, self.callback = module, callback

    def find_spec(self, fullname, path, target=None):
        if fullname != self.module:
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _LoaderThenCall(spec.loader, self.callback)
        return spec


def register_dynamo_backend(name="seam"):
    """Registers now when Dynamo is already imported, else when it gets imported. Returns whether the
    backend is (or will be) registered."""
    if DYNAMO in sys.modules:
        try:
            return register_now(name)
        except Exception as e:
            log.warning("seam: registering the torch.compile backend failed: %s: %s", type(e).__name__, e)
            return False
    if not has_dynamo():
        return False
    if not any(isinstance(f, AfterImport) and f.module == DYNAMO for f in sys.meta_path):
        sys.meta_path.insert(0, AfterImport(DYNAMO, lambda: register_now(name)))
    return True
