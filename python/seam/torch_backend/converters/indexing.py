"""embedding as seam's index_select (only with CompilationSettings(indexing=True): seam checks every
index on the device and waits for the kernel to report a bad one)."""

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
