"""Loads seam's extension module (built by CMake into this folder: cmake --build build --target
seam_python)."""

import glob
import os
import sys


def _built_for_other_interpreters():
    # The module's file name says which Python it was built for (_seam.cpython-311-...so): CMake builds
    # for the first python3 it finds, which may not be the one running this.
    here = os.path.dirname(os.path.abspath(__file__))
    tags = sorted({os.path.basename(p).split(".")[1] for p in glob.glob(os.path.join(here, "_seam.*.so"))})
    if not tags:
        return ""
    running = f"cpython-{sys.version_info.major}{sys.version_info.minor}"
    if any(tag.startswith(running) for tag in tags):
        return ""
    return (f"; python/seam/ holds a module built for {', '.join(tags)} and this is {running} "
            f"({sys.executable}): run it with that Python, or rebuild for this one with "
            f"`cmake -S . -B build -DPython_EXECUTABLE={sys.executable}`")


try:
    from . import _seam as native  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the build
    raise ImportError(
        "seam's extension module seam/_seam*.so is missing or does not load: build it with "
        "`cmake -S . -B build && cmake --build build --target seam_python` "
        f"(it is written into python/seam/) ({error}){_built_for_other_interpreters()}") from error

SeamError = native.SeamError
