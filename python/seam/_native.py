"""Loads seam's extension module (built by CMake into this folder: cmake --build build --target
seam_python)."""

try:
    from . import _seam as native  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the build
    raise ImportError(
        "seam's extension module seam/_seam*.so is missing or does not load: build it with "
        "`cmake -S . -B build && cmake --build build --target seam_python` "
        f"(it is written into python/seam/) ({error})") from error

SeamError = native.SeamError
