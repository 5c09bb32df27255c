"""The loss path through AOT autograd (python/seam/torch_backend/loss_decompositions.py): cross-entropy
and nll_loss forward and backward against eager for every reduction, ignore_index and class weights; what
the min-cut partition saves between forward and backward (one f32 per row, never the [rows, classes]
log-softmax); and what seam's kernels write (no one-hot, no f32 copy of bf16 logits, no f32 gradient)."""

import functools
import re

import pytest
import torch
import torch.nn.functional as F

import seam.torch_backend as tb
from seam.torch_backend.compile import graph_compiler, min_cut_partition
from seam.torch_backend.decompositions import decomposition_table
from seam.torch_backend.loss_decompositions import loss_decompositions
from seam.torch_backend.rewrites import apply_graph_rewrites

try:
    from functorch.compile import aot_function, make_boxed_func, min_cut_rematerialization_partition
except ImportError:  # torch without functorch's package
    from torch._functorch.aot_autograd import aot_function, make_boxed_func
    from torch._functorch.partitioners import min_cut_rematerialization_partition

try:
    import networkx  # noqa: F401 (the min-cut partition needs it)
    HAVE_NETWORKX = True
except ImportError:
    HAVE_NETWORKX = False

STRICT = tb.CompilationSettings(fallback=False, compile_ahead=False)
ROWS, CLASSES = 6, 37


def _targets(rows, classes, ignore_index=-100):
    t = torch.randint(0, classes, (rows,), generator=torch.Generator().manual_seed(1))
    t[1] = ignore_index
    return t


def _scores(rows, classes, dtype=torch.float32):
    g = torch.Generator().manual_seed(2)
    return (torch.randn(rows, classes, generator=g) * 3).to(dtype).requires_grad_()


def _through_seam(fn, x, *more, settings=STRICT):
    """fn(x, *more) and d(sum of fn(x) * a fixed weight)/dx through seam's regions, and the partitioned
    graphs (targets and class weights are inputs: a tensor a function closes over becomes a constant of
    the graph, which regions do not take)."""
    compiled = []
    out = tb.aot_compile(fn, settings, compiled=compiled)(x, *more)
    weight = torch.linspace(0.5, 1.5, out.numel()).reshape(out.shape).to(out.dtype)
    (grad,) = torch.autograd.grad((out * weight).sum(), x)
    return out.detach(), grad, compiled


def _eager(fn, x, *more):
    x = x.detach().clone().requires_grad_()
    out = fn(x, *more)
    weight = torch.linspace(0.5, 1.5, out.numel()).reshape(out.shape).to(out.dtype)
    (grad,) = torch.autograd.grad((out * weight).sum(), x)
    return out.detach(), grad


def _loss_ops_left(compiled):
    """The loss ops of the graphs (there should be none: decomposed into seam's regions)."""
    return [n.name for gm in compiled for n in gm.graph.nodes
            if n.op == "call_function" and any(k in str(n.target) for k in ("log_softmax", "nll_loss"))]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_cross_entropy_against_eager(reduction, weighted):
    weight = torch.linspace(0.2, 2.0, CLASSES) if weighted else None
    target = _targets(ROWS, CLASSES)

    def fn(x, target, *weight):
        return F.cross_entropy(x, target, weight=weight[0] if weight else None, ignore_index=-100,
                               reduction=reduction)

    x = _scores(ROWS, CLASSES)
    more = (target,) + ((weight,) if weighted else ())
    out, grad, compiled = _through_seam(fn, x, *more)
    ref_out, ref_grad = _eager(fn, x, *more)
    torch.testing.assert_close(out, ref_out, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(grad, ref_grad, rtol=1e-5, atol=1e-6)
    assert _loss_ops_left(compiled) == []
    assert all(not gm.seam_partition.refused for gm in compiled), [gm.seam_partition.refused for gm in compiled]


def test_bf16_logits_upcast_as_language_models_do():
    """HF's ForCausalLMLoss: bf16 logits, .float(), ignore_index -100 in the shifted labels, a sum divided
    by the number of counted tokens."""
    target = _targets(ROWS, CLASSES)

    def fn(x, target):
        return F.cross_entropy(x.float(), target, ignore_index=-100, reduction="sum") / 5.0

    x = _scores(ROWS, CLASSES, torch.bfloat16)
    out, grad, _ = _through_seam(fn, x, target)
    ref_out, ref_grad = _eager(fn, x, target)
    torch.testing.assert_close(out, ref_out, rtol=1e-5, atol=1e-5)
    assert grad.dtype == torch.bfloat16
    torch.testing.assert_close(grad, ref_grad, rtol=1.6e-2, atol=1e-4)


def test_ignore_index_inside_the_classes_and_all_rows_ignored():
    target = _targets(ROWS, CLASSES, ignore_index=3)
    target[4] = 3

    def mean_loss(x, target):
        return F.cross_entropy(x, target, ignore_index=3)

    x = _scores(ROWS, CLASSES)
    out, grad, _ = _through_seam(mean_loss, x, target)
    ref_out, ref_grad = _eager(mean_loss, x, target)
    torch.testing.assert_close(out, ref_out, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(grad, ref_grad, rtol=1e-5, atol=1e-6)

    ignored = torch.full((ROWS,), -100)  # eager's mean over no counted row is NaN (0 / 0)
    out, _, _ = _through_seam(lambda x, t: F.cross_entropy(x, t), _scores(ROWS, CLASSES), ignored)
    assert torch.isnan(out)


def test_nll_loss_of_any_scores_and_a_target_outside_the_classes():
    """nll_loss of scores that are not a log-softmax; a target outside [0, classes) that is not the
    ignore_index (an error in eager) makes the loss NaN, never a silent 0."""
    target = _targets(ROWS, CLASSES)

    def fn(x, target):
        return F.nll_loss(x * 2.0, target, reduction="none")

    x = _scores(ROWS, CLASSES)
    out, grad, _ = _through_seam(fn, x, target)
    ref_out, ref_grad = _eager(fn, x, target)
    torch.testing.assert_close(out, ref_out)
    torch.testing.assert_close(grad, ref_grad)

    # compiled for a valid target (tracing runs eager's op once), then run with a bad one
    compiled = tb.aot_compile(lambda x, t: F.nll_loss(x, t, reduction="none"), STRICT)
    compiled(_scores(ROWS, CLASSES), target)
    bad = target.clone()
    bad[2] = CLASSES
    out = compiled(_scores(ROWS, CLASSES), bad).detach()
    assert torch.isnan(out[2]) and not torch.isnan(out[torch.arange(ROWS) != 2]).any()


def test_uncovered_shapes_keep_the_op():
    """Scores of rank 3 ([batch, classes, positions]) are not decomposed: AOT autograd keeps the op."""
    target = torch.zeros(2, 5, dtype=torch.int64)
    x = torch.randn(2, 7, 5)
    assert loss_decompositions()[torch.ops.aten.nll_loss_forward.default](
        x, target.view(-1), None, 1, -100) is NotImplemented
    assert loss_decompositions()[torch.ops.aten.nll_loss_forward.default](
        x[:, :, 0], target[:, 0], torch.ones(3), 1, -100) is NotImplemented


# --- what crosses from the forward to the backward ----------------------------------------------------

def _lm_head_loss(hidden, weight, labels):
    """A language model's last step: bf16 logits (returned, as HF models do), upcast, cross-entropy."""
    logits = hidden @ weight.t()
    return logits, F.cross_entropy(logits.float(), labels, ignore_index=-100)


def _saved_by_min_cut(table, rows, hidden, vocab):
    """(name, bytes) of every tensor the forward graph saves for the backward that is neither an input nor
    one of the function's outputs (those exist anyway), and the forward graph."""
    graphs = []

    def keep(gm, _):
        graphs.append(gm)
        return make_boxed_func(gm.forward)

    # compiler="inductor": the recomputation allowlist torch 2's min-cut uses by default (it includes
    # _to_copy); torch 1.13's default list lacks it and would save the f32 upcast of the logits.
    partition = functools.partial(min_cut_rematerialization_partition, compiler="inductor")
    fn = aot_function(_lm_head_loss, fw_compiler=keep, bw_compiler=keep, decompositions=table,
                      partition_fn=partition)
    h = torch.randn(rows, hidden, dtype=torch.bfloat16, requires_grad=True)
    w = torch.randn(vocab, hidden, dtype=torch.bfloat16, requires_grad=True)
    labels = torch.randint(0, vocab, (rows,))
    labels[0] = -100
    fn(h, w, labels)[1].backward()
    forward = graphs[0]
    outputs = next(n for n in forward.graph.nodes if n.op == "output").args[0]
    user_outputs = set(outputs[:2])
    saved = []
    for node in outputs[2:]:
        if not isinstance(node, torch.fx.Node) or node in user_outputs or _views_input(node):
            continue
        meta = node.meta.get("tensor_meta", node.meta.get("val"))  # torch 1.13 records one, torch 2 both
        if meta is None:
            saved.append((node.name, None))  # unknown: fails the test
        elif isinstance(getattr(meta, "dtype", None), torch.dtype):  # not a symbolic size
            saved.append((node.name, int(torch.Size(meta.shape).numel()) *
                          torch.empty((), dtype=meta.dtype).element_size()))
    return saved, forward


def _views_input(node):
    """An input, or a transpose of one (the weight's .t() for the backward's product)."""
    while node.op == "call_function" and node.target in (torch.ops.aten.t.default, torch.ops.aten.permute.default):
        node = node.args[0]
    return node.op == "placeholder"


# torch 2's min-cut bans recomputing a value autograd saved as an output (log_softmax's, reached through
# `detach`) when the backward reads it outside a fusible op, so it saves the f32 log-softmax whatever the
# decompositions; under torch.compile the cross-entropy rewrite (test_torch_backend_cross_entropy_rewrite.py)
# keeps it out of the backward on every torch. Strict: a torch whose partition saves lse here must say so.
_TORCH2_SAVES_THE_LOG_SOFTMAX = pytest.mark.xfail(
    int(torch.__version__.split(".")[0]) >= 2, strict=True,
    reason="torch 2's min-cut saves the detached log-softmax output (ban_recompute_materialized_backward)")


@pytest.mark.skipif(not HAVE_NETWORKX, reason="the min-cut partition needs networkx")
@_TORCH2_SAVES_THE_LOG_SOFTMAX
def test_backward_saves_one_float_per_row_not_the_log_softmax():
    rows, hidden, vocab = 64, 16, 1000
    saved, forward = _saved_by_min_cut(decomposition_table(), rows, hidden, vocab)
    assert all(b is not None for _, b in saved), saved
    # the log-sum-exp (f32 per row), the counted-row mask and the count: O(rows), nothing of O(rows x vocab)
    assert sum(b for _, b in saved) <= 8 * rows + 8, saved
    assert not [n for n in forward.graph.nodes if "log_softmax" in str(n.target)]

    # Without seam's loss decompositions the f32 log-softmax [rows, vocab] is what the backward reads.
    table = {op: fn for op, fn in decomposition_table().items() if op not in loss_decompositions()}
    saved, _ = _saved_by_min_cut(table, rows, hidden, vocab)
    assert sum(b or 0 for _, b in saved) >= rows * vocab * 4, saved


@pytest.mark.skipif(not HAVE_NETWORKX, reason="the min-cut partition needs networkx")
def test_with_detach_as_alias_the_backward_saves_one_float_per_row_on_every_torch():
    """The option recompute_saved_outputs traces `detach` as `alias`: torch 2's min-cut then treats the
    log-softmax autograd saved as recomputable, as torch 1.13's does."""
    rows, hidden, vocab = 64, 16, 1000
    table = decomposition_table(recompute_saved_outputs=True)
    assert table[torch.ops.aten.detach.default] is not None
    saved, forward = _saved_by_min_cut(table, rows, hidden, vocab)
    assert all(b is not None for _, b in saved), saved
    assert sum(b for _, b in saved) <= 8 * rows + 8, saved
    assert not [n for n in forward.graph.nodes if n.target is torch.ops.aten.detach.default]


# --- what seam's kernels write -------------------------------------------------------------------------

def _group_outputs(compiled):
    """(dtype, shape) of every value any kernel of any region writes, from the regions' segmentations."""
    found = []
    for gm in compiled:
        for module in gm.modules():
            for translation in getattr(module, "_cache", {}).values():
                if getattr(translation, "spec", None) is None:
                    continue
                for line in translation.spec.executable().segmentation().splitlines():
                    if line.strip().startswith("outputs:"):
                        found += re.findall(r"%\d+ (\w+)\[([\d,]*)\]", line)
    return found


class _LmHeadLoss(torch.nn.Module):
    def forward(self, hidden, weight, labels):
        return _lm_head_loss(hidden, weight, labels)


def _rewritten_lm_head_loss(h, w, labels):
    """_lm_head_loss as torch.compile(backend="seam") takes it: the torch-level graph (symbolic_trace, with
    the shapes Dynamo would record) through the backend's rewrites."""
    from torch.fx.passes.shape_prop import ShapeProp

    gm = torch.fx.symbolic_trace(_LmHeadLoss())
    ShapeProp(gm).propagate(h, w, labels)
    assert apply_graph_rewrites(gm, tb.CompilationSettings())["cross_entropy_from_logsumexp"] == 1
    return gm


@pytest.mark.skipif(not HAVE_NETWORKX, reason="the min-cut partition needs networkx")
@pytest.mark.parametrize("path", ["rewrite", pytest.param("decompositions", marks=_TORCH2_SAVES_THE_LOG_SOFTMAX)])
@pytest.mark.parametrize("matmul", [False, True])
def test_kernels_write_no_one_hot_and_no_f32_rows_by_classes(matmul, path):
    rows, hidden, vocab = 16, 8, 96
    settings = tb.CompilationSettings(fallback=False, compile_ahead=False, matmul=matmul)
    compiled = []
    torch.manual_seed(0)
    h = torch.randn(rows, hidden, dtype=torch.bfloat16, requires_grad=True)
    w = torch.randn(vocab, hidden, dtype=torch.bfloat16, requires_grad=True)
    labels = torch.randint(0, vocab, (rows,))
    labels[3] = -100
    traced = _rewritten_lm_head_loss(h, w, labels) if path == "rewrite" else _lm_head_loss
    partition = min_cut_partition() if path == "rewrite" else \
        functools.partial(min_cut_rematerialization_partition, compiler="inductor")
    fn = aot_function(traced, fw_compiler=graph_compiler(settings, compiled),
                      bw_compiler=graph_compiler(settings, compiled), decompositions=decomposition_table(),
                      partition_fn=partition)
    logits, loss = fn(h, w, labels)
    loss.backward()
    ref_h, ref_w = h.detach().clone().requires_grad_(), w.detach().clone().requires_grad_()
    ref_logits, ref_loss = _lm_head_loss(ref_h, ref_w, labels)
    ref_loss.backward()
    torch.testing.assert_close(loss, ref_loss, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(h.grad, ref_h.grad, rtol=1.6e-2, atol=1e-3)
    torch.testing.assert_close(w.grad, ref_w.grad, rtol=1.6e-2, atol=1e-3)

    full = {f"{rows},{vocab}", f"{vocab},{rows}"}
    written = [(dtype, shape) for dtype, shape in _group_outputs(compiled) if shape in full]
    assert written, "the segmentation reports were not found"
    # bf16 only: the logits (the product), the logits' gradient (and, with the products in the region,
    # its transposed copy for grad_weight); never a bool one-hot, an f32 upcast, log-softmax or gradient
    assert {dtype for dtype, _ in written} == {"bf16"}, written


# --- the converters, for graphs that keep the ops (make_fx's trace without seam's table) ---------------

@pytest.mark.parametrize("reduction", [0, 1, 2])  # none, mean, sum
@pytest.mark.parametrize("weighted", [False, True])
def test_nll_loss_converters_against_eager(reduction, weighted):
    from torch_backend_helpers import seam_run

    aten = torch.ops.aten
    x = _scores(ROWS, CLASSES).detach()
    target = _targets(ROWS, CLASSES)
    weight = torch.linspace(0.2, 2.0, CLASSES) if weighted else None
    grad = torch.linspace(0.5, 1.5, ROWS) if reduction == 0 else torch.tensor(0.75)

    def fn(x, target, grad, *w):
        w = w[0] if w else None
        out, total_weight = aten.nll_loss_forward.default(x, target, w, reduction, -100)
        return out, total_weight, aten.nll_loss_backward.default(grad, x, target, w, reduction, -100, total_weight)

    inputs = (x, target, grad) + ((weight,) if weighted else ())
    got, compiled = seam_run(fn, *inputs)
    assert not compiled.seam_partition.pytorch_nodes or \
        not any("nll" in n for n in compiled.seam_partition.pytorch_nodes), compiled.seam_partition.refused
    for g, e in zip(got, fn(*inputs)):
        torch.testing.assert_close(g, e, rtol=1e-5, atol=1e-6)


def test_log_softmax_over_the_rows_then_nll_loss():
    """A log-softmax over dim 0 feeding nll_loss: the backward sums over that dim, not the classes."""
    def fn(x, target):
        return F.nll_loss(F.log_softmax(x, 0), target)

    x, target = _scores(ROWS, CLASSES), _targets(ROWS, CLASSES)
    out, grad, _ = _through_seam(fn, x, target)
    ref_out, ref_grad = _eager(fn, x, target)
    torch.testing.assert_close(out, ref_out, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(grad, ref_grad, rtol=1e-5, atol=1e-6)
