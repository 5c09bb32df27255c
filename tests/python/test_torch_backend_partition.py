"""The torch.compile backend's partition and runtime: which nodes become seam regions, what stays in
PyTorch (ops without a converter, forced ones, view-only regions), a converter failure falling back to
PyTorch, and one compiled definition per input signature (including integer inputs, as Dynamo's symbolic
sizes arrive)."""

import operator

import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

import seam.torch_backend as tb
from seam.torch_backend import CompilationSettings, compile_aten_graph
from seam.torch_backend.partition import SeamOperatorSupport
from seam.torch_backend.node_meta import tensor_info
from seam.torch_backend.registry import REGISTRY
from seam.torch_backend.translate import region_outputs
from torch_backend_helpers import assert_matches, seam_run

aten = torch.ops.aten
STRICT = CompilationSettings(fallback=False)
# cumsum has a converter: forced to PyTorch, it stands for an op PyTorch runs between two regions
PYTORCH_CUMSUM = frozenset({"aten.cumsum.default"})
CUMSUM_IN_PYTORCH = CompilationSettings(fallback=False, torch_executed_ops=PYTORCH_CUMSUM)


def _call_targets(gm):
    return [str(n.target) for n in gm.graph.nodes if n.op == "call_function"]


@pytest.mark.parametrize("middle, node, overload, settings, reason", [
    (lambda y: torch.sort(y, 1).values, "sort", "aten.sort.default", STRICT, "no converter"),
    (lambda y: torch.cumsum(y, 1), "cumsum", "aten.cumsum.default", CUMSUM_IN_PYTORCH,
     "forced to PyTorch (torch_executed_ops)"),
], ids=["no_converter", "torch_executed_ops"])
def test_unsupported_op_in_the_middle_splits_two_regions(middle, node, overload, settings, reason):
    def fn(x):
        y = (x * 2.0).exp()
        z = middle(y)  # PyTorch runs it between the regions
        return (z + 1.0).sin()

    x = torch.randn(3, 5)
    (out,), gm = seam_run(fn, x, settings=settings)
    report = gm.seam_partition
    assert len(report.regions) == 2, report.regions
    assert report.pytorch_nodes == [node], report.pytorch_nodes
    assert reason in report.refused[overload], report.refused
    assert_matches(out, fn(x))
    # the parent graph calls two SeamRegions around the op
    modules = [n.target for n in gm.graph.nodes if n.op == "call_module"]
    assert len(modules) == 2 and all(isinstance(gm.get_submodule(m), tb.runtime.SeamRegion) for m in modules)


def test_independent_branches_and_multi_output_ops_share_a_region():
    def fn(x, w, b):
        y, mean, rstd = aten.native_layer_norm.default(x, [5], w, b, 1e-5)
        return y.tanh(), mean.exp(), rstd * 2.0

    inputs = (torch.randn(4, 5), torch.randn(5), torch.randn(5))
    outs, gm = seam_run(fn, *inputs, settings=STRICT)
    assert len(gm.seam_partition.regions) == 1
    assert not gm.seam_partition.pytorch_nodes
    for a, e in zip(outs, fn(*inputs)):
        assert_matches(a, e)


def test_a_multi_output_op_left_to_pytorch_keeps_its_getitems_there():
    def fn(x):
        y, mask = aten.native_dropout.default(x.exp(), 0.0, True)  # random: PyTorch's
        return y * 2.0, mask

    x = torch.randn(3, 5)
    (y, mask), gm = seam_run(fn, x, settings=STRICT)
    assert "native_dropout" in gm.seam_partition.pytorch_nodes
    assert_matches(y, x.exp() * 2.0)
    assert mask.dtype == torch.bool and bool(mask.all())


def test_view_only_regions_stay_in_pytorch():
    def fn(x, w):
        return torch.mm(x.t(), w.t()).view(-1)

    x, w = torch.randn(5, 3), torch.randn(4, 5)
    (out,), gm = seam_run(fn, x, w, settings=CompilationSettings(fallback=False, matmul=False))
    assert gm.seam_partition.regions == []  # t and view alone are not worth a launch
    assert_matches(out, fn(x, w))


def test_torch_executed_ops_are_forced_to_pytorch():
    def fn(x):
        return x.exp().sin().cos()

    x = torch.randn(3, 5)
    settings = CompilationSettings(fallback=False, torch_executed_ops=frozenset({"aten.sin.default"}))
    (out,), gm = seam_run(fn, x, settings=settings)
    assert gm.seam_partition.pytorch_nodes == ["sin"]
    assert len(gm.seam_partition.regions) == 2
    assert_matches(out, fn(x))


def test_supports_checks_refuse_by_dtype_and_settings():
    def fn(x, y):
        return torch.mm(x, y).exp()

    x, y = torch.randn(3, 4, dtype=torch.float64), torch.randn(4, 2)
    gm = make_fx(fn)(x.float(), y)
    settings = CompilationSettings(matmul=False)
    mm = next(n for n in gm.graph.nodes if n.target is aten.mm.default)
    assert "matmul=False" in REGISTRY.why_not(mm, settings)
    assert REGISTRY.why_not(mm, CompilationSettings()) is None
    complex_graph = make_fx(lambda z: (z * 2).real)(torch.randn(3, dtype=torch.complex64))
    mul = next(n for n in complex_graph.graph.nodes if n.target is aten.mul.Tensor)
    assert "dtype torch.complex64" in REGISTRY.why_not(mul, settings)


def test_a_converter_failure_sends_that_node_to_pytorch(monkeypatch):
    def fn(x):
        return (x.exp() * 3.0).sin() + x.cos()

    conv = REGISTRY.get(aten.exp.default)

    def broken(ctx, x):
        raise RuntimeError("converter bug")

    monkeypatch.setattr(conv, "convert", broken)
    x = torch.randn(3, 5)
    before = dict(tb.STATS)
    (out,), gm = seam_run(fn, x, settings=CompilationSettings())
    assert_matches(out, fn(x))
    assert tb.STATS["nodes_in_pytorch_after_failure"] == before.get("nodes_in_pytorch_after_failure", 0) + 1
    region = next(m for m in gm.modules() if isinstance(m, tb.runtime.SeamRegion))
    split = next(iter(region._cache.values())).module  # the region re-partitioned around exp
    assert [str(n.target) for n in split.graph.nodes if n.op == "call_function"].count("aten.exp.default") == 1
    inner = [m for m in split.modules() if isinstance(m, tb.runtime.SeamRegion)]
    assert inner, "the rest of the region still runs on seam"
    seam_runs = tb.STATS["regions_in_seam"]
    assert_matches(gm(x), fn(x))  # remembered: no second attempt, the rest on seam
    assert tb.STATS["nodes_in_pytorch_after_failure"] == before.get("nodes_in_pytorch_after_failure", 0) + 1
    assert tb.STATS["regions_in_seam"] > seam_runs
    with pytest.raises(Exception, match="converter bug"):
        seam_run(fn, x, settings=CompilationSettings(fallback=False))


def test_a_seam_failure_runs_the_region_in_pytorch(monkeypatch):
    from seam.torch_backend import translate as translate_module

    def fn(x):
        return x.exp() * 3.0

    real = translate_module.translate

    def failing_fusion(graph, inputs):
        translation = real(graph, inputs)

        class Failing:
            def compile(self, *a, **k):
                raise RuntimeError("seam failed to compile")

        translation.fusion = Failing()
        return translation

    monkeypatch.setattr(tb.runtime, "translate", failing_fusion)
    x = torch.randn(3, 5)
    before = tb.STATS["signatures_in_pytorch"]
    (out,), gm = seam_run(fn, x, settings=CompilationSettings())
    assert_matches(out, fn(x))
    assert tb.STATS["signatures_in_pytorch"] == before + 1


def test_one_definition_per_input_signature():
    def fn(x):
        return (x * x).sum(-1)

    x = torch.randn(4, 6)
    gm = compile_aten_graph(make_fx(fn)(x), [x], STRICT)
    region = next(m for m in gm.modules() if isinstance(m, tb.runtime.SeamRegion))
    before = tb.STATS["signatures_compiled"]
    assert_matches(gm(x), fn(x))
    assert_matches(gm(x + 1), fn(x + 1))
    strided = torch.randn(6, 4).t()  # same shape, other strides: another signature
    assert_matches(gm(strided), fn(strided))
    assert tb.STATS["signatures_compiled"] == before + 2
    assert len(region._cache) == 2


class _Symbolic:
    """A recorded value with symbolic extents, as Dynamo's FakeTensors carry SymInts ("s0")."""

    def __init__(self, *shape, dtype=torch.float32):
        self.shape, self.dtype = shape, dtype


def _graph_with_int_input():
    """sum(exp(squeeze(unsqueeze(x.view(n, -1), 0), 0)) + ones_like(...), 0) with n a graph input, as Dynamo
    passes symbolic sizes; the recorded extents of the intermediate values are symbolic."""
    g = torch.fx.Graph()
    x, n = g.placeholder("x"), g.placeholder("n")
    v = g.call_function(aten.view.default, (x, [n, -1]))
    u = g.call_function(aten.unsqueeze.default, (v, 0))
    q = g.call_function(aten.squeeze.dim, (u, 0))
    o = g.call_function(aten.ones_like.default, (q,))
    e = g.call_function(aten.add.Tensor, (g.call_function(aten.exp.default, (q,)), o))
    s = g.call_function(aten.sum.dim_IntList, (e, [0]))
    g.output(s)
    x.meta["val"] = torch.empty(6, 4, device="meta")
    n.meta["val"] = 3
    for node, shape in ((v, ("s0", "s1")), (u, (1, "s0", "s1")), (q, ("s0", "s1")), (o, ("s0", "s1")),
                        (e.args[0], ("s0", "s1")), (e, ("s0", "s1")), (s, ("s1",))):
        node.meta["val"] = _Symbolic(*shape)
    return torch.fx.GraphModule(torch.nn.Module(), g)


def test_integer_inputs_specialize_per_value():
    gm = compile_aten_graph(_graph_with_int_input(), None, STRICT)
    assert len(gm.seam_partition.regions) == 1 and not gm.seam_partition.pytorch_nodes
    for shape, n in (((6, 4), 3), ((6, 4), 2), ((10, 3), 5)):
        x = torch.randn(*shape)
        assert_matches(gm(x, n), (x.view(n, -1).exp() + 1).sum(0))


def test_getitem_follows_its_producer():
    support = SeamOperatorSupport(STRICT)
    gm = make_fx(lambda x: aten.native_layer_norm.default(x, [3], None, None, 1e-5)[0])(torch.randn(2, 3))
    getitem = next(n for n in gm.graph.nodes if n.target is operator.getitem)
    assert support.is_node_supported({}, getitem)
    gm = make_fx(lambda x: aten.native_dropout.default(x, 0.5, True)[0])(torch.randn(2, 3))
    getitem = next(n for n in gm.graph.nodes if n.target is operator.getitem)
    assert not support.is_node_supported({}, getitem)


def test_a_region_without_tensor_inputs_runs_on_the_recorded_device():
    def fn(x):
        rows = torch.arange(4).unsqueeze(1)
        cols = torch.arange(5).unsqueeze(0)
        return torch.cumsum(x, 0), (rows >= cols).float() * 2.0  # cumsum: PyTorch, on the only input

    x = torch.randn(4, 5)
    outs, gm = seam_run(fn, x, settings=CUMSUM_IN_PYTORCH)
    regions = [m for m in gm.modules() if isinstance(m, tb.runtime.SeamRegion)]
    assert len(regions) == 1
    assert not [n for n in regions[0].graph_module.graph.nodes if n.op == "placeholder"]
    for a, e in zip(outs, fn(x)):
        assert_matches(a, e)


def test_views_handed_out_of_a_region_are_made_by_pytorch():
    def fn(x):
        y = x.exp()
        return y.t(), y.view(-1)[2:5], y.sin()

    x = torch.randn(3, 5)
    outs, gm = seam_run(fn, x, settings=STRICT)
    assert sorted(gm.seam_partition.pytorch_nodes) == ["slice_1", "t", "view"], gm.seam_partition.pytorch_nodes
    expected = fn(x)
    for a, e in zip(outs, expected):
        assert_matches(a, e)
        assert a.stride() == e.stride()
    assert outs[0]._base is not None and outs[0]._base.data_ptr() == outs[1]._base.data_ptr()  # both views of y


def test_a_split_handing_out_one_piece_stays_whole():
    def fn(x):
        a, b = x.exp().split(2, dim=1)
        return a.sin(), b

    x = torch.randn(3, 4)
    outs, gm = seam_run(fn, x, settings=STRICT)  # STRICT: a region seam could not take would raise
    for a, e in zip(outs, fn(x)):
        assert_matches(a, e)

    def handed_out(x):
        a, b = x.exp().split(2, dim=1)
        return a, b

    outs, gm = seam_run(handed_out, x, settings=STRICT)
    assert "split" in gm.seam_partition.pytorch_nodes  # the whole split goes to PyTorch, on exp's output
    for a, e in zip(outs, handed_out(x)):
        assert_matches(a, e)
        assert a.stride() == e.stride()


def test_copies_traced_in_another_order_share_one_definition():
    """Two copies of a computation whose statements the program (or a tracer, or a partitioner that
    recomputes) wrote in different orders: the translation's order depends on what the nodes compute,
    not on where they stand in the graph, so both give one definition."""
    def first(x, w1, w2):
        p = x * w1
        q = x * w2
        return (p.exp() + q.sin()).sum(-1, keepdim=True) * x

    def second(x, w1, w2):
        q = x * w2
        p = x * w1
        return (p.exp() + q.sin()).sum(-1, keepdim=True) * x

    def fn(x, a, b, c, d):
        return torch.cumsum(second(torch.cumsum(first(x, a, b), 0), c, d), 0)  # cumsum: PyTorch

    inputs = (torch.randn(4, 8),) + tuple(torch.randn(8) for _ in range(4))
    outs, gm = seam_run(fn, *inputs, settings=CUMSUM_IN_PYTORCH)
    assert_matches(outs[0], fn(*inputs))
    regions = [m for m in gm.modules() if isinstance(m, tb.runtime.SeamRegion)]
    specs = [next(iter(r._cache.values())).spec for r in regions]
    assert len(specs) == 2 and specs[0] is specs[1]


def test_a_view_read_inside_and_handed_out_leaves_its_base_as_the_output():
    """Two copies of a block, the first handing out a value it computes, the second a view of it that it
    also reads (as AOT autograd's min-cut saves either for the backward: they cost the same). The second
    region returns the base and PyTorch makes the view, so both regions return the same values and share
    one definition, and the view is a view, with eager's strides, as in eager."""
    def block(x, w, hand_out_view):
        y = (x * w).exp()
        v = y.view(2, 3, 4)  # read inside the region and (second copy) handed out
        return (v * 2.0).view(6, 4), v if hand_out_view else y

    def fn(x, w1, w2):
        a, saved_a = block(x, w1, False)
        b, saved_b = block(torch.cumsum(a, 0), w2, True)  # cumsum: PyTorch between the copies
        return b, saved_a, saved_b

    inputs = (torch.randn(6, 4), torch.randn(4), torch.randn(4))
    outs, gm = seam_run(fn, *inputs, settings=CUMSUM_IN_PYTORCH)
    for a, e in zip(outs, fn(*inputs)):
        assert_matches(a, e)
        assert a.stride() == e.stride()
    regions = [m for m in gm.modules() if isinstance(m, tb.runtime.SeamRegion)]
    fusions = [next(iter(r._cache.values())).fusion for r in regions]
    assert len(fusions) == 2 and fusions[0].text() == fusions[1].text(), "\n\n".join(map(repr, fusions))
    assert outs[2]._base is not None  # a view of the region's output, made by PyTorch


def test_a_slice_read_inside_and_handed_out_stays_a_region_output():
    """A slice the region reads and hands out stays its output: returning the base instead would write
    four times the bytes."""
    def fn(x):
        part = x.exp()[:, :2]
        return part.sin(), part

    x = torch.randn(3, 8)
    outs, gm = seam_run(fn, x, settings=STRICT)
    for a, e in zip(outs, fn(x)):
        assert_matches(a, e)
    assert not any(n.startswith("slice") for n in gm.seam_partition.pytorch_nodes), gm.seam_partition.pytorch_nodes
    region = next(m for m in gm.modules() if isinstance(m, tb.runtime.SeamRegion))
    outputs, _ = region_outputs(region.graph_module.graph)
    assert [tuple(tensor_info(o).shape) for o in outputs] == [(3, 2), (3, 2)], outputs


def test_region_outputs_have_the_strides_eager_gives():
    """A computed region output has eager's strides, so PyTorch's next op sees what it would in eager: the
    attention output of an efficient-attention kernel is (B, H, T, D) laid out as (B, T, H, D); a cast of
    it keeps that layout in eager, and the .view after the transpose back needs it."""
    def fn(attn, x):
        y = attn.to(torch.float64) * 2  # a region
        merged = y.transpose(1, 2).view(2, 5, 12)  # PyTorch: a view only the eager layout allows
        return merged, (x.t() + 1.0).exp(), x.t().sum(0, keepdim=True) * 3

    attn = torch.randn(2, 5, 3, 4).transpose(1, 2)  # (B, H, T, D) with (B, T, H, D) memory
    x = torch.randn(6, 4)
    outs, gm = seam_run(fn, attn, x, settings=STRICT)
    assert "view" in gm.seam_partition.pytorch_nodes
    for a, e in zip(outs, fn(attn, x)):
        assert_matches(a, e)
        assert a.stride() == e.stride(), (a.stride(), e.stride())


def test_identical_regions_share_one_definition():
    """The fuser orders a region's inputs, nodes and outputs as it likes (from a set, on torch 1.13);
    translation records them in the original graph's order, so the copies give one definition. Every
    value of the first copy reaches the second through cumsum, forced to PyTorch, so no partitioner
    (torch 2's merges independent nodes across copies, torch 1.13's does not) can move a node between
    copies."""
    def block(x, c, ws):
        h = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * ws[0] + c[:, None]
        g = torch.nn.functional.silu(h * ws[1] + ws[2]) * (h * ws[3] - ws[4])
        return g.tanh() + ws[5] * h, g.sum(-1)

    def fn(x, c, *ws):
        y, s1 = block(x, c, ws[:6])
        z, s2 = block(torch.cumsum(y, 0), torch.cumsum(s1, 0), ws[6:])  # cumsum: PyTorch between copies
        return torch.cumsum(z, 0), s2

    inputs = (torch.randn(4, 8), torch.randn(4)) + tuple(torch.randn(8) for _ in range(12))
    outs, gm = seam_run(fn, *inputs, settings=CUMSUM_IN_PYTORCH)
    for a, e in zip(outs, fn(*inputs)):
        assert_matches(a, e)
    regions = [m for m in gm.modules() if isinstance(m, tb.runtime.SeamRegion)]
    assert len(regions) == 2
    specs = [next(iter(r._cache.values())).spec for r in regions]
    assert specs[0] is specs[1], "two copies of one block should share a fusion (and its compiled code)"


def test_regions_compile_ahead_on_threads(monkeypatch):
    """compile_aten_graph compiles every region for the signature the graph recorded, on worker threads:
    the first run then compiles nothing; inputs of another signature (a prediction that misses) compile
    as they run."""
    import seam.runner

    def fn(x, w):
        y = (x * w).exp()
        z = torch.cumsum(y, 1)  # forced to PyTorch: between two regions
        return (z.t() + 1.0).sin() * 2, z.sum(0)

    x, w = torch.randn(6, 5), torch.randn(5)
    gm = make_fx(fn)(x, w)
    settings = CompilationSettings(fallback=False, compile_threads=2, torch_executed_ops=PYTORCH_CUMSUM)
    before = tb.STATS["definitions_compiled_ahead"]
    compiled = compile_aten_graph(gm, [x, w], settings)
    regions = [m for m in compiled.modules() if isinstance(m, tb.runtime.SeamRegion)]
    assert len(regions) >= 2 and tb.STATS["definitions_compiled_ahead"] == before + len(regions)
    calls = []
    real_compile = seam.runner.native.compile
    monkeypatch.setattr(seam.runner.native, "compile", lambda *a, **k: calls.append(a) or real_compile(*a, **k))
    for a, e in zip(compiled(x, w), fn(x, w)):
        assert_matches(a, e)
        assert a.stride() == e.stride()
    assert calls == [], "the regions were compiled ahead"
    xt = torch.randn(5, 6).t()  # another signature: compiled when it runs
    for a, e in zip(compiled(xt, w), fn(xt, w)):
        assert_matches(a, e)
    assert len(calls) >= 1


def test_compiled_graph_takes_its_boxed_arguments():
    """AOT autograd's boxed calling convention: the compiled graph empties the argument list it is given
    (torch's CUDA graph trees assert it; torch may free inputs the graph no longer needs)."""
    from seam.torch_backend.compile import graph_compiler

    def f(x, y):
        return torch.exp(x) * y + 1.0

    x, y = torch.randn(4, 8), torch.randn(4, 8)
    gm = make_fx(f)(x, y)
    compiled = graph_compiler(CompilationSettings())(gm, [x, y])
    assert compiled._boxed_call
    args = [x, y]
    out = compiled(args)
    assert args == []
    torch.testing.assert_close(out[0] if isinstance(out, (list, tuple)) else out, f(x, y))


def _tied_weight_gradient(hidden, grad_out, other):
    """A later region's product that reads only an earlier region's value, summed with what PyTorch computes
    after that region (a tied weight's two gradients): the product belongs in the earlier region."""
    grad = (grad_out * 2.0).tanh()  # [rows, vocab]: the earlier region's large value
    embedding_grad = torch.cumsum(grad[:, :8], 0).t()  # forced to PyTorch: between the regions
    weight_grad = grad.t() @ hidden  # [vocab, hidden]: small
    return weight_grad + embedding_grad.sum() + other, grad.sum()


def _regions_of(gm):
    return [gm.get_submodule(n.target) for n in gm.graph.nodes if n.op == "call_module"]


@pytest.mark.parametrize("hoisting", [True, False])
def test_a_product_moves_into_the_region_whose_value_it_reads(hoisting):
    rows, vocab, hidden = 64, 96, 8
    # seeded: about one draw in 40 makes the sum of the [64, 8] cumsum, added to every element, small, so
    # that elements near 0 see its rounding (seam and torch sum its 512 values in other orders) past the
    # f32 tolerance
    torch.manual_seed(0)
    inputs = (torch.randn(rows, hidden), torch.randn(rows, vocab), torch.randn(vocab, hidden))
    settings = CompilationSettings(fallback=False, region_hoisting=hoisting, torch_executed_ops=PYTORCH_CUMSUM)
    outs, gm = seam_run(_tied_weight_gradient, *inputs, settings=settings)
    for got, expected in zip(outs, _tied_weight_gradient(*inputs)):
        assert_matches(got, expected)
    regions = _regions_of(gm)
    assert len(regions) == 2, gm.seam_partition.regions
    products = [sum(str(n.target) == "aten.mm.default" for n in r.graph_module.graph.nodes) for r in regions]
    # moved, the product reads grad where it is computed, and the later region reads the [vocab, hidden]
    # product instead of the [rows, vocab] gradient
    assert products == ([1, 0] if hoisting else [0, 1]), gm.seam_partition.regions
    later_inputs = [n for n in regions[1].graph_module.graph.nodes if n.op == "placeholder"]
    largest = max(n.meta["val"].numel() if "val" in n.meta else n.meta["tensor_meta"].shape.numel()
                  for n in later_inputs)
    assert largest == (vocab * hidden if hoisting else rows * vocab)


def test_dump_regions_writes_each_signature_once_under_its_own_name(tmp_path):
    """CompilationSettings.dump_regions: the fusion each region ran, per graph and signature, no file
    written over (two compilations of the same graph number their files on)."""
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.GELU())
    settings = tb.CompilationSettings(fallback=False, dump_regions=str(tmp_path))
    for _ in range(2):
        step = tb.aot_compile(model, settings)
        step(torch.randn(4, 8, requires_grad=True)).sum().backward()
        step(torch.randn(4, 8, requires_grad=True)).sum().backward()  # the same signature: nothing new
    names = sorted(p.name for p in tmp_path.iterdir())
    assert len(names) == 4 and len(set(n.rsplit("_", 1)[0] for n in names)) == 4, names
    texts = [p.read_text() for p in sorted(tmp_path.iterdir())]
    assert all(t.startswith("fusion ") for t in texts)
    assert any(" erf " in t for t in texts), texts[0]
