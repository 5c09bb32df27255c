"""nvfuser.nvfuser_version: the Version class scripts compare version() with."""

from seam.version import Version  # noqa: F401
