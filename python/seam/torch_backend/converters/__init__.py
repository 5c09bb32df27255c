"""The aten converters; importing this package registers every one of them."""

from . import creation, indexing, losses, matmul, movement, normalization, pointwise, reductions, scans  # noqa: F401
