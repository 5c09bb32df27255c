"""Cross-entropy of [rows, classes] float scores as each row's log-sum-exp minus its target's score, so
that autograd's backward reads the scores and one float per row, never a [rows, classes] log-softmax.

Through F.cross_entropy, autograd saves log_softmax's output for the backward, and whether AOT autograd's
min-cut partition then recomputes it from the scores or saves it (f32, rows x classes: 1 GB for a Llama
step's 8192 x 32000) depends on its heuristics, which differ between torch versions
(loss_decompositions.py keeps the decomposed path for what this rewrite does not take). Written with
logsumexp, the backward is exp(scores - lse) times the row's gradient, minus it at the target: the scores
(the model's logits, upcast, which the partition recomputes from the bf16 logits) and lse are all it
reads, whatever the partition decides.

The target's score is picked by comparing each class with the target inside the row (a where and a sum,
which seam computes in the row kernel next to the log-sum-exp), not by a gather. Rows whose target is
ignore_index count neither in the sum nor in the mean's divisor, as in eager; a target outside the
classes (an error in eager) makes its row's loss NaN.

Runs on the torch-level graph a backend receives (Dynamo's, before AOT autograd). Taken: cross_entropy
without class weights or label smoothing, any reduction, float32 or float64 scores of rank 2 and a rank-1
target; half-precision scores (eager computes their log-softmax in that precision) are left as written."""

import torch

from .loss_calls import plain_cross_entropy
from .traced import traced_dtype, traced_rank


def cross_entropy_from_logsumexp(scores, target, ignore_index, reduction):
    """F.cross_entropy(scores, target, ignore_index=ignore_index, reduction=reduction) for [rows, classes]
    scores, as log-sum-exp minus the target's score."""
    classes = scores.shape[1]
    zero = torch.zeros((), dtype=scores.dtype, device=scores.device)
    lse = torch.logsumexp(scores, 1)
    hit = torch.arange(classes, device=scores.device).unsqueeze(0) == target.unsqueeze(1)
    picked = torch.sum(torch.where(hit, scores, zero), 1)
    valid = target != ignore_index
    out_of_range = valid & ((target < 0) | (target >= classes))
    losses = torch.where(valid, lse - picked, zero)
    losses = torch.where(out_of_range, torch.full((), float("nan"), dtype=scores.dtype, device=scores.device),
                         losses)
    if reduction == "none":
        return losses
    total = torch.sum(losses)
    if reduction == "sum":
        return total
    return total / torch.sum(valid.to(scores.dtype))


def _taken(scores, target):
    return traced_dtype(scores) in (torch.float32, torch.float64) and traced_rank(scores) == 2 and \
        traced_rank(target) == 1


def rewrite_cross_entropy(gm):
    """Routes each plain cross-entropy of float scores in `gm` to cross_entropy_from_logsumexp, in place;
    returns how many."""
    graph = gm.graph
    count = 0
    for loss in list(graph.nodes):
        call = plain_cross_entropy(loss)
        if call is None or not _taken(call[0], call[1]):
            continue
        scores, target, ignore_index, reduction = call
        with graph.inserting_before(loss):
            rewritten = graph.call_function(cross_entropy_from_logsumexp, (scores, target, ignore_index, reduction))
        rewritten.meta.update(loss.meta)
        loss.replace_all_uses_with(rewritten)
        graph.erase_node(loss)
        count += 1
    return count
