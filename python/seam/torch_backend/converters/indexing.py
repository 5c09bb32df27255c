"""embedding as seam's index_select and scatter (src or value) as seam's scatter, only with
CompilationSettings(indexing=True): seam checks every index on the device and waits for the kernel to report
a bad one."""

import torch

from ..node_meta import tensor_info
from ..registry import converter


def _embedding_ok(node, settings):
    if not settings.indexing:
        return "indexing ops left to PyTorch (indexing=False)"
    weight, indices = tensor_info(node.args[0]), tensor_info(node.args[1])
    if weight is None or indices is None or weight.rank != 2 or indices.dtype not in (torch.int64, torch.int32):
        return "needs a 2-D weight and integer indices"
    return True


@converter("aten.embedding.default", supports=_embedding_ok)
def embedding(ctx, weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    shape = [indices.size(i) for i in range(indices.ndim)] + [weight.size(1)]  # known at specialization
    rows = ctx.ops.index_select(weight, ctx.ops.reshape(indices, [-1]), 0)
    return ctx.ops.reshape(rows, shape)


def _scatter_ok(node, settings):
    if not settings.indexing:
        return "indexing ops left to PyTorch (indexing=False)"
    x, index = tensor_info(node.args[0]), tensor_info(node.args[2])
    if x is None or index is None or x.rank == 0 or index.rank != x.rank:
        return "needs data and an index of one rank, 1 or more"
    src = node.args[3]
    if isinstance(src, torch.fx.Node):
        info = tensor_info(src)
        if info is None or info.dtype != x.dtype or info.rank != x.rank:
            return "needs a source of the data's dtype and rank"
    elif not isinstance(src, (bool, int, float)):
        return "needs a number or a tensor source"
    return True


@converter("aten.scatter.src", "aten.scatter.value", supports=_scatter_ok)
def scatter(ctx, x, dim, index, src):
    """seam's scatter (docs/IR.md, "Scatter"): of repeated positions, the write latest along dim lands on
    the host backend, as torch's CPU kernel has it, and any one on CUDA, as torch's CUDA kernel."""
    return ctx.ops.scatter(x, index, src, ctx.axis(int(dim), ctx.rank(x)))
