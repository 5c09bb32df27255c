"""seam's decompositions of the loss path: `_log_softmax`, its backward and `nll_loss_forward/backward`,
written so that AOT autograd saves only what the backward needs.

Kept as single ops, log-softmax and nll_loss hide their structure from AOT autograd's partitioner: the
backward of `_log_softmax` reads its [rows, classes] output, and `nll_loss_backward` reads the scores it
only needs the shape of, so the min-cut partition saves the f32 log-softmax (an op it may not recompute,
read by one it cannot fuse). Decomposed, the log-softmax is `x - lse` (lse: the log-sum-exp of each row, a
reduction the partitioner saves rather than recomputes), the backward reads it only through pointwise
ops, and nll_loss never reads the scores in the backward. What crosses from the forward to the backward
is then the logits the model computed (which it returns anyway) and one f32 per row; the backward
recomputes the softmax from the logits inside its row kernel.

The target's class is picked by comparing the class index with the target inside the row (a where and a
sum over the row, a reduction seam's row kernel computes next to the log-sum-exp), never as a one-hot
tensor and never as a gather of a computed [rows, classes] value, which seam's row kernels would have to
write out first (docs/CODEGEN.md, "Indexing", Segmentation). A target outside the classes that is not
`ignore_index` (an error in eager) makes that row's loss NaN rather than 0.

The log-softmax backward sums its incoming gradient over the row. When that gradient is nll_loss's, the
sum is known without summing (one class per counted row): the nll backward decomposition attaches it to
the tensor it returns, and the log-softmax backward decomposition, which autograd calls with that same
tensor, uses it. Without the sum, the backward is one pointwise kernel; with it, the segmenter may write
the [rows, classes] f32 gradient between a reduction kernel and its consumers. Any other gradient (a sum
of several uses, a log-softmax used elsewhere) carries no such attribute and is summed.

A decomposition returns NotImplemented for what it does not cover (AOT autograd then keeps the op):
scores of another rank than [rows, classes], class weights of another shape."""

import torch

aten = torch.ops.aten

_NONE, _MEAN, _SUM = 0, 1, 2
_ROW_SUM = "_seam_nll_row_sum"
_HALF = (torch.float16, torch.bfloat16)


def _computed(x):
    """Half and BFloat16 computed in Float, as PyTorch's kernels do."""
    return x.float() if x.dtype in _HALF else x


def log_softmax(x, dim, half_to_float):
    if x.dim() == 0 or x.numel() == 0 or not x.dtype.is_floating_point:
        return NotImplemented
    out_dtype = torch.float32 if half_to_float else x.dtype
    xf = _computed(x)
    row_max = torch.amax(xf, dim, keepdim=True)
    lse = torch.log(torch.sum(torch.exp(xf - row_max), dim, keepdim=True)) + row_max
    return (xf - lse).to(out_dtype)


def log_softmax_backward(grad, output, dim, input_dtype):
    if grad.dim() == 0 or grad.numel() == 0:
        return NotImplemented
    g = _computed(grad)
    row_sum = getattr(grad, _ROW_SUM, None)
    if row_sum is None or grad.dim() != 2 or dim % 2 != 1:  # nll's sums are over the classes of [rows, classes]
        row_sum = torch.sum(g, dim, keepdim=True)
    result = g - torch.exp(_computed(output)) * _computed(row_sum)
    return result.to(input_dtype)


def _covered(scores, target, weight):
    return scores.dim() == 2 and target.dim() == 1 and scores.dtype.is_floating_point and \
        (weight is None or (weight.dim() == 1 and weight.shape[0] == scores.shape[1]))


def _hit(scores, target):
    """[rows, classes] bool: the class is the row's target (a compare seam keeps inside the kernel)."""
    classes = torch.arange(scores.shape[1], device=scores.device)
    return classes.unsqueeze(0) == target.unsqueeze(1)


def nll_loss_forward(scores, target, weight, reduction, ignore_index):
    if not _covered(scores, target, weight):
        return NotImplemented
    hit = _hit(scores, target)
    valid = target != ignore_index
    picked = torch.sum(torch.where(hit, scores, 0.0), 1)
    if weight is None:
        row_weight = valid.to(scores.dtype)
    else:  # the target's weight, picked like its score
        picked_weight = torch.sum(torch.where(hit, weight.unsqueeze(0).to(scores.dtype), 0.0), 1)
        row_weight = torch.where(valid, picked_weight, 0.0)
    out_of_range = valid & ((target < 0) | (target >= scores.shape[1]))
    losses = torch.where(out_of_range, float("nan"), -(picked * row_weight))
    if reduction == _NONE:
        return losses, scores.new_zeros(())
    total_weight = torch.sum(row_weight)
    total = torch.sum(losses)
    return (total / total_weight if reduction == _MEAN else total), total_weight


def nll_loss_backward(grad_output, scores, target, weight, reduction, ignore_index, total_weight):
    if not _covered(scores, target, weight):
        return NotImplemented
    if reduction == _NONE:
        scale = grad_output.unsqueeze(1)
    elif reduction == _MEAN:
        scale = grad_output / total_weight
    else:
        scale = grad_output
    valid = (target != ignore_index).unsqueeze(1)
    hit = _hit(scores, target)
    if weight is None:
        coefficient = (-scale).to(scores.dtype)
        row_sum = coefficient
    else:
        class_weight = weight.unsqueeze(0).to(scores.dtype)
        coefficient = (-(scale * class_weight)).to(scores.dtype)
        # the target's weight, picked over the row: a reduction of [rows, 1] values, not of the gradient
        row_sum = (-(scale * torch.sum(torch.where(hit, class_weight, 0.0), 1, keepdim=True))).to(scores.dtype)
    grad = torch.where(hit & valid, coefficient, 0.0)
    # one class per counted row, so the row's sum is known without summing the gradient
    setattr(grad, _ROW_SUM, torch.where(valid, row_sum, 0.0))
    return grad


def loss_decompositions():
    """aten overload -> seam's decomposition, for the loss ops of this torch."""
    return {
        aten._log_softmax.default: log_softmax,
        aten._log_softmax_backward_data.default: log_softmax_backward,
        aten.nll_loss_forward.default: nll_loss_forward,
        aten.nll_loss_backward.default: nll_loss_backward,
    }
