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


def seam(gm, example_inputs, **kwargs):
    """backend="seam" as registered: loads the backend on first use, so that registering (which may run
    in the middle of Dynamo's own import) imports nothing more."""
    from .backend import seam_backend

    return seam_backend(gm, example_inputs, **kwargs)


def _registered(registry, name):
    """Whether Dynamo knows `name`, asked without list_backends (which imports every backend module of
    Dynamo's, not safe while Dynamo is being imported). Since torch 2.1 _BACKENDS also holds entry points
    Dynamo discovered and loads on first use (loading ours imports seam, which runs this: registering then
    would make Dynamo's own registration of the entry point fail as a duplicate) and _COMPILER_FNS the
    loaded functions; before, _BACKENDS holds the functions."""
    return name in getattr(registry, "_BACKENDS", {}) or name in getattr(registry, "_COMPILER_FNS", {})


def register_now(name="seam"):
    """Registers the backend with Dynamo (imported if it is not yet); True when Dynamo knows the name. An
    entry point of the name that Dynamo discovered counts: Dynamo loads it on first use."""
    from torch._dynamo.backends import registry

    if not _registered(registry, name):
        try:
            registry.register_backend(compiler_fn=seam, name=name)
        except AssertionError:  # "duplicate name": registered meanwhile (the entry point, another thread)
            pass
    return _registered(registry, name)


class _LoaderThenCall(importlib.abc.Loader):
    """Runs the module's own loader, then `callback` (failures logged, never raised into the import)."""

    def __init__(self, loader, callback, finder):
        self._loader, self._callback, self._finder = loader, callback, finder

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
        self._finder.done()
        try:
            self._callback()
        except Exception as e:  # registering must never break the user's import
            log.warning("seam: registering the torch.compile backend failed: %s: %s", type(e).__name__, e)


class AfterImport(importlib.abc.MetaPathFinder):
    """A one-shot meta path finder: once `module` is imported, `callback` runs. It leaves sys.meta_path
    when the module is executed, not when it is looked up: importlib.util.find_spec (has_dynamo, a
    test's skip condition) looks modules up without importing them."""

    def __init__(self, module, callback):
        self.module, self.callback = module, callback

    def find_spec(self, fullname, path, target=None):
        if fullname != self.module or fullname in sys.modules:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _LoaderThenCall(spec.loader, self.callback, self)
        return spec

    def done(self):
        if self in sys.meta_path:
            sys.meta_path.remove(self)


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
