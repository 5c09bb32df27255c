"""A language model's last step, `cross_entropy(hidden @ weight.T, target)`, without the logits: the rows
are taken in chunks; per chunk the product runs through torch (cuBLAS on the GPU), then one seam row
kernel computes each row's loss (log-sum-exp minus the target's logit) and the logits' gradient
(softmax - onehot(target)) * scale, the one-hot a compare inside the kernel; two more products turn that
gradient into the chunk's share of grad_hidden and grad_weight (accumulated in f32). Only a chunk of
logits and of their gradient exist at a time, and the forward computes the gradients, so nothing of
[rows, vocab] is kept for the backward, which scales them by the loss's gradient.

Exact as seam's cross-entropy kernels are: f32 accumulation, `ignore_index` rows giving 0 and not
counted, reductions "mean" (over counted rows) and "sum". Inputs it does not serve (no floating hidden
states, another rank, class weights, label smoothing, a reduction "none") are refused by
`linear_cross_entropy_supported`; callers run the unfused path then."""

import math
import threading

import torch
import torch.nn.functional as F

from ..dtypes import DataType, torch_to_datatype
from ..fusion_builder import FusionBuilder

# (ignore_index, then per input its dtype, shape, strides and device) -> the chunk's compiled row kernel
_SPECIALIZATIONS = {}
_LOCK = threading.Lock()

# Bytes of chunk-sized temporaries allowed on the GPU: a fraction of the memory free when a step starts.
_FREE_MEMORY_SHARE = 0.25
_HOST_CHUNK_BYTES = 64 << 20


def linear_cross_entropy_supported(hidden, weight, target, reduction="mean", label_smoothing=0.0,
                                   class_weight=None):
    """None when linear_cross_entropy serves these inputs, else why not."""
    if reduction not in ("mean", "sum"):
        return f"reduction {reduction!r}"
    if class_weight is not None or label_smoothing:
        return "class weights or label smoothing"
    if hidden.dim() != 2 or weight.dim() != 2 or target.dim() != 1 or hidden.shape[1] != weight.shape[1] or \
            hidden.shape[0] != target.shape[0]:
        return "needs hidden [rows, H], weight [V, H], target [rows]"
    if hidden.dtype != weight.dtype or hidden.dtype not in (torch.float32, torch.bfloat16, torch.float16):
        return f"dtypes {hidden.dtype} and {weight.dtype}"
    if target.dtype not in (torch.int64, torch.int32):
        return f"target dtype {target.dtype}"
    if weight.shape[0] == 0 or hidden.device != weight.device or hidden.device != target.device:
        return "an empty vocabulary or tensors on several devices"
    return None


def chunk_rows(rows, vocab, hidden, element_size, device, budget=None):
    """Rows per chunk: at least twice the hidden size (a power of two), fewer when the chunk's logits and
    gradient would not fit `budget` bytes (default: a quarter of the GPU's free memory; 64 MiB on the
    host). Each chunk adds its share to the f32 weight gradient, a product that reads and writes all of it
    (vocab x hidden x 8 bytes); with at least 2 x hidden rows that is at most half of what the chunk's own
    logits move (rows x vocab x 8 bytes). Chunks of vocab / hidden rows (about the hidden states' size, 32
    rows for Qwen2) made that accumulation 128 passes over 545 MB: 114 ms per step against 19.6 unfused
    on an H100."""
    per_row = vocab * (2 * element_size + 4)  # the logits, their gradient, the row's f32 temporaries
    if budget is None and device.type == "cuda":
        free, _ = torch.cuda.mem_get_info(device)
        budget = int(free * _FREE_MEMORY_SHARE)
    elif budget is None:
        budget = _HOST_CHUNK_BYTES
    by_shape = 1 << max(0, math.ceil(math.log2(max(1, 2 * hidden))))
    by_memory = max(1, budget // per_row)
    return max(1, min(rows, by_shape, 1 << int(math.log2(by_memory))))


def _row_kernel(logits, target, scale, ignore_index):
    """The compiled row kernel for inputs of this signature (a chunk's; the last chunk may be shorter)."""
    inputs = (logits, target, scale)
    key = (ignore_index,) + tuple((x.dtype, x.shape, x.stride(), x.device) for x in inputs)
    with _LOCK:
        spec = _SPECIALIZATIONS.get(key)
    if spec is None:  # identical fusions compile once (fusion_builder.py), so a race costs a build only
        spec = _build(inputs, ignore_index).compile()
        with _LOCK:
            spec = _SPECIALIZATIONS.setdefault(key, spec)
    return spec


def _build(inputs, ignore_index):
    """loss [rows, 1] (0 where ignored) and dlogits [rows, V] = (softmax - onehot) * scale (0 where
    ignored), from logits [rows, V], target [rows] (int64) and scale (a 0-d f32 tensor): one row kernel."""
    fusion = FusionBuilder()
    logits, target, scale = (fusion.define_tensor(x.shape, x.stride(), x.dtype, x.device) for x in inputs)
    dtype = torch_to_datatype(inputs[0].dtype)
    ops = fusion.ops
    x = ops.cast(logits, DataType.Float)
    shape = x.shape()
    row_max = ops.max(x, [1], keepdim=True)
    e = ops.exp(ops.sub(x, ops.broadcast_in_dim(row_max, shape, [0, 1])))
    total = ops.sum(e, [1], keepdim=True)
    lse = ops.add(ops.log(total), row_max)
    target_column = ops.broadcast_in_dim(target, [ops.size(x, 0), 1], [0])
    valid = ops.ne(target_column, ignore_index)
    hit = ops.eq(ops.broadcast_in_dim(ops.iota(ops.size(x, 1), 0, 1, DataType.Int), shape, [1]),
                 ops.broadcast_in_dim(target_column, shape, [0, 1]))
    picked = ops.sum(ops.where(hit, x, 0.0), [1], keepdim=True)
    fusion.add_output(ops.where(valid, ops.sub(lse, picked), 0.0))
    row_scale = ops.where(valid, ops.broadcast_in_dim(scale, [ops.size(x, 0), 1], []), 0.0)
    softmax = ops.div(e, ops.broadcast_in_dim(total, shape, [0, 1]))
    grad = ops.mul(ops.sub(softmax, ops.cast(hit, DataType.Float)), ops.broadcast_in_dim(row_scale, shape, [0, 1]))
    fusion.add_output(ops.cast(grad, dtype))
    return fusion


def _forward_and_gradients(hidden, weight, target, ignore_index, reduction, rows_per_chunk):
    rows = hidden.shape[0]
    valid = target != ignore_index
    count = valid.sum()
    scale = (1.0 / count.float()) if reduction == "mean" else torch.ones((), device=hidden.device)
    scale = scale.to(torch.float32).reshape(())
    loss = torch.zeros((), dtype=torch.float32, device=hidden.device)
    grad_hidden = torch.empty_like(hidden)
    grad_weight = torch.zeros(weight.shape, dtype=torch.float32, device=weight.device)
    target = target.to(torch.int64)
    for start in range(0, rows, rows_per_chunk):
        end = min(rows, start + rows_per_chunk)
        h = hidden[start:end]
        logits = h @ weight.t()
        # the row kernel reads plain memory: a target with PyTorch's negative bit is read resolved
        inputs = [logits, target[start:end].contiguous().resolve_neg(), scale]
        row_loss, dlogits = _row_kernel(*inputs, int(ignore_index)).run(inputs)
        loss += row_loss.sum()
        grad_hidden[start:end] = dlogits @ weight
        grad_weight += dlogits.t() @ h  # each chunk's product in the inputs' dtype, their sum in f32
    if reduction == "mean":
        loss = loss * scale
    return loss, grad_hidden, grad_weight.to(weight.dtype)


class _LinearCrossEntropy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, hidden, weight, target, ignore_index, reduction, rows_per_chunk):
        loss, grad_hidden, grad_weight = _forward_and_gradients(hidden, weight, target, ignore_index,
                                                                reduction, rows_per_chunk)
        ctx.save_for_backward(grad_hidden, grad_weight)
        return loss

    @staticmethod
    def backward(ctx, grad_loss):
        grad_hidden, grad_weight = ctx.saved_tensors
        g = grad_loss.to(torch.float32)
        return (grad_hidden * g).to(grad_hidden.dtype), (grad_weight * g).to(grad_weight.dtype), None, None, \
            None, None


def linear_cross_entropy(hidden, weight, target, ignore_index=-100, reduction="mean", rows_per_chunk=None):
    """cross_entropy((hidden @ weight.T).float(), target, ignore_index=..., reduction=...) without the
    [rows, vocab] logits; hidden [rows, H], weight [V, H] (float32, bfloat16 or float16), target [rows].
    Raises ValueError for inputs it does not serve (linear_cross_entropy_supported says why)."""
    reason = linear_cross_entropy_supported(hidden, weight, target, reduction)
    if reason is not None:
        raise ValueError(f"linear_cross_entropy: {reason}")
    if rows_per_chunk is None:
        rows_per_chunk = chunk_rows(hidden.shape[0], weight.shape[0], weight.shape[1], hidden.element_size(),
                                    hidden.device)
    return _LinearCrossEntropy.apply(hidden, weight, target, int(ignore_index), reduction, int(rows_per_chunk))


def _custom_op():
    """seam::linear_cross_entropy as an operator AOT autograd keeps whole (torch >= 2.4's custom_op): its
    forward returns the loss and both gradients, its backward scales the gradients. None on older torch."""
    custom_op = getattr(torch.library, "custom_op", None)
    if custom_op is None:
        return None

    @custom_op("seam::linear_cross_entropy", mutates_args=())
    def op(hidden: torch.Tensor, weight: torch.Tensor, target: torch.Tensor, ignore_index: int,
           reduction: str) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        rows = chunk_rows(hidden.shape[0], weight.shape[0], weight.shape[1], hidden.element_size(), hidden.device)
        return _forward_and_gradients(hidden, weight, target, ignore_index, reduction, rows)

    @op.register_fake
    def _(hidden, weight, target, ignore_index, reduction):
        return hidden.new_empty((), dtype=torch.float32), torch.empty_like(hidden), torch.empty_like(weight)

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output[1], output[2])

    def backward(ctx, grad_loss, _grad_hidden, _grad_weight):
        grad_hidden, grad_weight = ctx.saved_tensors
        g = grad_loss.to(torch.float32)
        return (grad_hidden * g).to(grad_hidden.dtype), (grad_weight * g).to(grad_weight.dtype), None, None, None

    op.register_autograd(backward, setup_context=setup_context)
    return op


_OP = None
_OP_DEFINED = False


def linear_cross_entropy_call(hidden, weight, target, ignore_index, reduction):
    """What the graph rewrite (rewrites/linear_cross_entropy.py) calls: the custom operator where torch
    has them (Dynamo's graph then reaches AOT autograd with one opaque node), else the autograd Function.
    Inputs the fused op does not serve run eager's cross_entropy of the product."""
    global _OP, _OP_DEFINED
    if linear_cross_entropy_supported(hidden, weight, target, reduction) is not None:
        logits = (hidden @ weight.t()).float()
        return F.cross_entropy(logits, target, ignore_index=ignore_index, reduction=reduction)
    with _LOCK:
        if not _OP_DEFINED:
            _OP, _OP_DEFINED = _custom_op(), True
    if _OP is not None:
        return _OP(hidden, weight, target, int(ignore_index), reduction)[0]
    return linear_cross_entropy(hidden, weight, target, ignore_index, reduction)
