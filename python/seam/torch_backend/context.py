"""What a converter works with while a region becomes a fusion: the FusionBuilder being built (its `ops`
are fd.ops), the graph node being converted, and the dtype and rank of every graph value already defined."""

import torch

from ..dtypes import torch_to_datatype
from ..handles import Tensor
from .node_meta import TensorInfo, value_info


class ConversionError(Exception):
    """A converter cannot translate this node with these arguments (the region then runs in PyTorch)."""


class ConversionContext:
    def __init__(self, fusion):
        self.fusion = fusion
        self.ops = fusion.ops
        self.node = None
        self._info = {}  # handle index -> TensorInfo of the graph value it holds
        self.memo = {}  # what converters share within one region (an operand padded once for all its uses)

    # --- what is known about a value -------------------------------------------------------------
    def set_info(self, handle, info):
        if isinstance(handle, Tensor) and info is not None:
            self._info[handle.index] = info

    def info(self, x):
        """TensorInfo of a graph value (a handle made from a graph node), None for Python numbers."""
        if not isinstance(x, Tensor):
            return None
        info = self._info.get(x.index)
        if info is None:
            raise ConversionError(f"{self.where()}: no dtype/shape known for {x.name}")
        return info

    def dtype(self, x):
        """torch dtype of a value: a tensor's, or a Python number's natural one."""
        if isinstance(x, Tensor):
            return self.info(x).dtype
        if isinstance(x, bool):
            return torch.bool
        return torch.int64 if isinstance(x, int) else torch.float64

    def rank(self, x):
        return self.info(x).rank if isinstance(x, Tensor) else 0

    def where(self):
        return f"converting {self.node.format_node() if self.node is not None else '?'}"

    # --- building ------------------------------------------------------------------------------------
    def cast(self, x, dtype):
        """x as `dtype` (a torch dtype); Python numbers stay numbers."""
        if not isinstance(x, Tensor):
            return x
        out = self.ops.cast(x, torch_to_datatype(dtype))
        known = self._info.get(x.index)
        if known is not None:
            self.set_info(out, TensorInfo(dtype, known.shape, known.device))
        return out

    def to_float(self, x):
        """Half and BFloat16 tensors (and integers) computed in Float, as PyTorch's kernels do."""
        if not isinstance(x, Tensor):
            return x
        known = self._info.get(x.index)
        if known is None or known.dtype not in (torch.float32, torch.float64):
            return self.cast(x, torch.float32)  # a cast to its own dtype is no op in seam
        return x

    def axis(self, dim, rank):
        if not -max(rank, 1) <= dim < max(rank, 1):
            raise ConversionError(f"{self.where()}: dim {dim} out of range for rank {rank}")
        return dim % max(rank, 1)

    def finish(self, node, result):
        """The converter's result cast to the dtype(s) the graph recorded for the node, with that info
        attached, so that the next converters see exactly what PyTorch would hand them."""
        info = value_info(node)
        if isinstance(result, (tuple, list)):
            if isinstance(info, tuple) and len(info) < len(result):  # values nobody reads (see node_meta)
                info = info + (None,) * (len(result) - len(info))
            if not isinstance(info, tuple) or len(info) != len(result):
                raise ConversionError(f"{self.where()}: {len(result)} results for a node recorded with "
                                      f"{len(info) if isinstance(info, tuple) else 1}")
            return tuple(self._finish_one(r, i) for r, i in zip(result, info))
        if not isinstance(info, TensorInfo):
            raise ConversionError(f"{self.where()}: one result for a node that records several")
        return self._finish_one(result, info)

    def _finish_one(self, result, info):
        if result is None or info is None:
            return None
        if not isinstance(result, Tensor):
            raise ConversionError(f"{self.where()}: the converter returned {result!r}, not a tensor")
        out = self.cast(result, info.dtype)
        self.set_info(out, info)
        return out

