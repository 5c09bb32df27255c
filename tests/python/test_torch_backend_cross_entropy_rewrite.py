"""The cross-entropy rewrite (python/seam/torch_backend/rewrites/cross_entropy.py) on torch-level graphs
(torch.fx's symbolic_trace with ShapeProp, the kind of graph Dynamo hands a backend): the calls it takes
and leaves; results and gradients against eager through seam's regions for every reduction, ignore_index,
all rows ignored and a target outside the classes; and what AOT autograd's min-cut partition then saves
for the backward of a language model's loss (one float per row, nothing of [rows, classes]), with the
backend's partition on this torch."""

import pytest
import torch
import torch.fx
import torch.nn.functional as F
from torch.fx.passes.shape_prop import ShapeProp

import seam.torch_backend as tb
from seam.torch_backend.compile import min_cut_partition
from seam.torch_backend.decompositions import decomposition_table
from seam.torch_backend.rewrites import apply_graph_rewrites
from seam.torch_backend.rewrites.cross_entropy import cross_entropy_from_logsumexp, rewrite_cross_entropy

try:
    from functorch.compile import aot_function, make_boxed_func
except ImportError:  # torch without functorch's package
    from torch._functorch.aot_autograd import aot_function, make_boxed_func

STRICT = tb.CompilationSettings(fallback=False, compile_ahead=False)
ROWS, CLASSES = 9, 37


class _Loss(torch.nn.Module):
    def __init__(self, **kwargs):
        super().__init__()
        self.kwargs = kwargs

    def forward(self, x, target):
        return F.cross_entropy(x, target, **self.kwargs)


def _traced(module, *inputs):
    gm = torch.fx.symbolic_trace(module)
    ShapeProp(gm).propagate(*inputs)
    return gm


def _case(dtype=torch.float32, ignore_index=-100):
    g = torch.Generator().manual_seed(4)
    x = (torch.randn(ROWS, CLASSES, generator=g) * 3).to(dtype)
    t = torch.randint(0, CLASSES, (ROWS,), generator=g)
    t[2] = t[7] = ignore_index
    return x, t


def _calls(gm):
    return [n.target for n in gm.graph.nodes if n.op == "call_function"]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_rewritten_losses_match_eager_through_seam(reduction):
    x, t = _case()
    gm = _traced(_Loss(reduction=reduction), x, t)
    assert rewrite_cross_entropy(gm) == 1
    gm.recompile()
    assert cross_entropy_from_logsumexp in _calls(gm) and F.cross_entropy not in _calls(gm)

    xs, xe = x.clone().requires_grad_(), x.clone().requires_grad_()
    out = tb.aot_compile(gm, STRICT)(xs, t)
    ref = F.cross_entropy(xe, t, reduction=reduction)
    torch.testing.assert_close(out, ref, rtol=1e-5, atol=1e-5)
    weight = torch.linspace(0.5, 1.5, ref.numel()).reshape(ref.shape)
    (out * weight).sum().backward()
    (ref * weight).sum().backward()
    torch.testing.assert_close(xs.grad, xe.grad, rtol=1e-5, atol=1e-6)


def test_all_rows_ignored_and_a_target_outside_the_classes():
    x, t = _case(ignore_index=3)
    t[:] = 3  # eager's mean over no counted row: 0 / 0
    out = cross_entropy_from_logsumexp(x, t, 3, "mean")
    assert torch.isnan(out) and torch.isnan(F.cross_entropy(x, t, ignore_index=3))
    assert cross_entropy_from_logsumexp(x, t, 3, "sum") == 0

    x, t = _case()
    t[4] = CLASSES  # an error in eager: NaN here, never a silent 0
    losses = cross_entropy_from_logsumexp(x, t, -100, "none")
    assert torch.isnan(losses[4]) and not torch.isnan(losses[torch.arange(ROWS) != 4]).any()
    assert losses[2] == 0 and losses[7] == 0  # ignored rows


@pytest.mark.parametrize("what", ["bf16 scores", "class weights", "label smoothing", "rank 3 scores"])
def test_what_the_rewrite_leaves_alone(what):
    x, t = _case(torch.bfloat16 if what == "bf16 scores" else torch.float32)
    kwargs = {"class weights": {"weight": torch.ones(CLASSES)}, "label smoothing": {"label_smoothing": 0.1}}
    module = _Loss(**kwargs.get(what, {}))
    if what == "rank 3 scores":
        x, t = x.reshape(ROWS, CLASSES, 1), t.reshape(ROWS, 1)
    gm = _traced(module, x, t)
    assert rewrite_cross_entropy(gm) == 0
    assert F.cross_entropy in _calls(gm)


def test_the_option_turns_the_rewrite_off():
    x, t = _case()
    gm = _traced(_Loss(), x, t)
    off = tb.CompilationSettings(cross_entropy_from_logsumexp=False)
    assert apply_graph_rewrites(gm, off).get("cross_entropy_from_logsumexp") is None
    assert F.cross_entropy in _calls(gm)
    assert apply_graph_rewrites(gm, tb.CompilationSettings())["cross_entropy_from_logsumexp"] == 1


class _LmHeadLoss(torch.nn.Module):
    """A language model's last step: bf16 logits (returned, as HF models do), upcast, cross-entropy."""

    def forward(self, hidden, weight, labels):
        logits = hidden @ weight.t()
        return logits, F.cross_entropy(logits.float(), labels, ignore_index=-100)


def _saved_by_the_partition(rows=64, hidden=16, vocab=1000):
    """Bytes of each tensor the forward saves for the backward that is neither an input, a transpose of
    one, nor one of the function's outputs (those exist anyway)."""
    h = torch.randn(rows, hidden, dtype=torch.bfloat16, requires_grad=True)
    w = torch.randn(vocab, hidden, dtype=torch.bfloat16, requires_grad=True)
    labels = torch.randint(0, vocab, (rows,))
    labels[0] = -100
    gm = _traced(_LmHeadLoss(), h, w, labels)
    assert apply_graph_rewrites(gm, tb.CompilationSettings())["cross_entropy_from_logsumexp"] == 1
    graphs = []

    def keep(g, _):
        graphs.append(g)
        return make_boxed_func(g.forward)

    fn = aot_function(gm, fw_compiler=keep, bw_compiler=keep, decompositions=decomposition_table(),
                      partition_fn=min_cut_partition())
    fn(h, w, labels)[1].backward()
    outputs = next(n for n in graphs[0].graph.nodes if n.op == "output").args[0]
    user_outputs = set(outputs[:2])
    saved = {}
    for node in outputs[2:]:
        base = node
        while base.op == "call_function" and base.target in (torch.ops.aten.t.default,
                                                              torch.ops.aten.permute.default):
            base = base.args[0]
        if node in user_outputs or base.op == "placeholder":
            continue
        meta = node.meta.get("tensor_meta", node.meta.get("val"))
        if isinstance(getattr(meta, "dtype", None), torch.dtype):
            saved[node.name] = int(torch.Size(meta.shape).numel()) * torch.empty((), dtype=meta.dtype).element_size()
        else:
            saved[node.name] = None  # unknown: fails the test
    return saved


def test_the_backward_reads_the_logits_and_one_float_per_row():
    rows = 64
    saved = _saved_by_the_partition(rows=rows)
    assert all(b is not None for b in saved.values()), saved
    # the log-sum-exp (f32 per row) and what counts the rows: O(rows), nothing of O(rows x vocab)
    assert sum(saved.values()) <= 8 * rows + 8, saved
