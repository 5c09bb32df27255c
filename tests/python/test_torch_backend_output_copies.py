"""Region outputs need no copy: seam writes each computed output into a tensor of its own, in the layout
eager gives it, so a region run of the plain-PyTorch Llama, forward and backward, copies no output it
computed (aten clone/copy_). What is still copied: an output that would alias an input where aten copies,
and one of two outputs that seam computed as one tensor (two layers' equal masks) where the graph returns
one of them."""

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

import seam.torch_backend as tb
from seam.torch_backend.node_meta import recorded_strides
from seam.torch_backend.runtime import SeamRegion
from seam.torch_backend.translate import region_outputs
from llama_block import TinyLlama

_COPIES = {"aten.clone.default", "aten.copy_.default", "aten._to_copy.default", "aten.copy.default"}


class _CountCopies(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.copies = []  # (op, the tensor copied)
        self.duplicates = 0
        self.layouts = []  # outputs whose strides are not eager's
        self.compared = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if str(func) in _COPIES:
            self.copies.append((str(func), args[0]))
        return func(*args, **(kwargs or {}))


@pytest.fixture
def counted_region_runs(monkeypatch):
    """Counts the copies made while a SeamRegion runs a translated signature (not PyTorch's own nodes)."""
    counter = _CountCopies()
    outputs = []
    run = SeamRegion._run

    def counted(self, translation, args):
        before = len(counter.copies)
        with counter:
            result = run(self, translation, args)
        results = result if isinstance(result, tuple) else (result,)
        # a copy of one output that another output of this run is: a duplicate the graph returns
        counter.duplicates += sum(1 for _, source in counter.copies[before:]
                                  if any(source is r for r in results))
        nodes, _ = region_outputs(self.graph_module.graph)
        for node, out in zip(nodes, results):  # eager's strides on every output of rank >= 2
            strides = recorded_strides(node) if isinstance(node, torch.fx.Node) else None
            if strides is not None and out.dim() >= 2 and out.numel() > 1:
                counter.compared += 1
                if tuple(strides) != out.stride():
                    counter.layouts.append((node.name, tuple(strides), out.stride()))
        outputs.append((results, args))
        return result

    monkeypatch.setattr(SeamRegion, "_run", counted)
    return counter, outputs


def test_llama_step_makes_no_output_copies(counted_region_runs):
    counter, outputs = counted_region_runs
    torch.manual_seed(0)
    model = TinyLlama(layers=2)
    tokens = torch.randint(0, 64, (2, 9))
    labels = torch.randint(0, 64, (2, 9))
    ref_logits, ref_loss = model(tokens, labels)
    ref_loss.backward()
    ref_grads = {n: p.grad.clone() for n, p in model.named_parameters()}
    model.zero_grad()
    compiled = []
    logits, loss = tb.aot_compile(model, tb.CompilationSettings(fallback=False), compiled=compiled)(tokens, labels)
    loss.backward()
    torch.testing.assert_close(logits, ref_logits, rtol=1e-4, atol=1e-5)
    for name, p in model.named_parameters():
        torch.testing.assert_close(p.grad, ref_grads[name], rtol=1e-4, atol=1e-6)
    assert len(outputs) >= 2, "no region ran in seam"
    copied = [(op, tuple(x.shape), x.dtype) for op, x in counter.copies]
    assert len(counter.copies) == counter.duplicates, f"region runs copied outputs they computed: {copied}"
    assert sum(x.numel() for _, x in counter.copies) <= 81 * 2, copied  # at most the layers' 9 x 9 masks
    ranked = [o for results, _ in outputs for o in results if isinstance(o, torch.Tensor) and o.dim() >= 2]
    assert sum(o._base is None for o in ranked) >= 10, "outputs of rank >= 2 are views"
    assert counter.compared >= 10 and not counter.layouts, f"outputs not in eager's layout: {counter.layouts}"


def _region(fn, *example):
    from torch.fx.experimental.proxy_tensor import make_fx
    gm = tb.compile_aten_graph(make_fx(fn)(*example), list(example), tb.CompilationSettings(fallback=False))
    assert gm.seam_partition.regions, "nothing claimed"
    return gm


def test_transposed_output_is_written_in_eager_layout_without_a_copy(counted_region_runs):
    counter, _ = counted_region_runs
    x = torch.randn(6, 4).t()  # a pointwise op on it is transposed in eager
    gm = _region(lambda a: (a * 2.0).exp(), x)
    got, expected = gm(x), (x * 2.0).exp()
    torch.testing.assert_close(got, expected)
    assert got.stride() == expected.stride() and got._base is None
    assert [op for op, _ in counter.copies] == []


def test_clone_of_an_input_does_not_alias_it(counted_region_runs):
    counter, _ = counted_region_runs
    x = torch.randn(5, 3)
    gm = _region(lambda a: (torch.ops.aten.clone.default(a), a + 1.0), x)
    copied, _ = gm(x)
    torch.testing.assert_close(copied, x)
    assert copied.data_ptr() != x.data_ptr()
    x.add_(1.0)  # the copy must not see a later write to the input
    torch.testing.assert_close(copied, x - 1.0)


class _SameTensorTwice:
    """A specialization whose two outputs seam computed as one tensor (as it does for equal masks)."""

    def __init__(self, out):
        self.out = out

    def run(self, inputs):
        return [self.out, self.out]


def _region_returning(escaping):
    from types import SimpleNamespace
    from torch.fx.experimental.proxy_tensor import make_fx

    region = SeamRegion(make_fx(lambda x: (x + 1.0, x + 1.0))(torch.randn(2)), tb.CompilationSettings(), "r")
    region.escaping = escaping
    shared = torch.randn(3, 2)
    translation = SimpleNamespace(spec=_SameTensorTwice(shared), tensor_positions=[0], output_positions=[0, 1],
                                  copies=[True, True])
    return region._run(translation, (torch.randn(2),)), shared


@pytest.mark.parametrize("escaping,copied", [(None, True), (frozenset({1}), True), (frozenset({0}), True),
                                             (frozenset(), False)])
def test_outputs_computed_as_one_tensor_are_copied_where_the_graph_returns_one(escaping, copied):
    (first, second), shared = _region_returning(escaping)
    assert first is shared
    assert (second is not shared) == copied
    torch.testing.assert_close(second, shared)


def test_the_positions_a_graph_returns_follow_views():
    from torch.fx.experimental.proxy_tensor import make_fx
    from seam.torch_backend.partition import _returned_positions

    def fn(x):
        a = x.exp()
        b = a.sin()
        c = b.cos()
        return a.t(), c, b * 3.0  # a through a view, c as it is, b only read (by PyTorch's mul)

    settings = tb.CompilationSettings(fallback=False, torch_executed_ops=frozenset({"aten.mul.Tensor"}))
    gm = tb.compile_aten_graph(make_fx(fn)(torch.randn(3, 2)), None, settings)
    call, = [n for n in gm.graph.nodes if n.op == "call_module"]
    by_reader = {next(iter(u.users)).target if next(iter(u.users)).op != "output" else "output": u.args[1]
                 for u in call.users}
    assert set(by_reader) == {torch.ops.aten.t.default, "output", torch.ops.aten.mul.Tensor}
    assert _returned_positions(call) == {by_reader[torch.ops.aten.t.default], by_reader["output"]}
