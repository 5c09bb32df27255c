"""The torch.compile backend's converters, one aten overload at a time: each case calls the overload
through torch.ops, traces it to an aten graph (by hand where this torch's make_fx would decompose the
overload), runs the graph through seam's partition (the overload's node must land in a seam region: no
fallback) and compares with eager. Shapes are odd, operands broadcast, some are non-contiguous views,
dtypes mix (bf16 included). test_every_claimed_op_is_tested keeps the list complete."""

import math

import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

from seam.torch_backend import claimed_ops
from seam.torch_backend import compile_aten_graph
from torch_backend_helpers import STRICT, assert_matches, op_graph, seam_run

aten = torch.ops.aten


def r(*shape, dtype=torch.float32, low=-2.0, high=2.0, seed=None):
    g = torch.Generator().manual_seed(seed if seed is not None else (sum(shape) * 31 + len(shape)))
    return (torch.rand(shape, generator=g, dtype=torch.float64) * (high - low) + low).to(dtype)


def ints(*shape, high=8, dtype=torch.int64):
    g = torch.Generator().manual_seed(sum(shape) + 7)
    return torch.randint(0, high, shape, generator=g, dtype=dtype)


def bf(*shape, **kw):
    return r(*shape, dtype=torch.bfloat16, **kw)


NC = r(7, 5).t()               # non-contiguous [5, 7]
POS = r(3, 5, low=0.1, high=3.0)
POS_NC = r(5, 3, low=0.1, high=3.0).t()

# overload -> [(fn, inputs)]; fn calls the overload
CASES = {}


def case(name, fn, *inputs):
    CASES.setdefault(name, []).append((fn, inputs))


class Direct:
    """A case whose graph is built by hand (op_graph): for overloads make_fx decomposes on some torch."""

    def __init__(self, op, args, then):
        self.op, self.args, self.then = op, args, then


def direct(name, op, *args, then=None):
    CASES.setdefault(name, []).append((Direct(op, args, then), ()))


def unary(op):
    return lambda x: op(x)


def binary(op):
    return lambda x, y: op(x, y)


def with_number(op, number):
    return lambda x: op(x, number)


for _u in ("exp", "sin", "cos", "tanh", "sigmoid", "erf", "expm1", "silu", "neg", "abs", "relu"):
    _op = getattr(aten, _u).default
    case(f"aten.{_u}.default", unary(_op), NC)
    case(f"aten.{_u}.default", unary(_op), bf(3, 5))
for _u in ("log", "sqrt", "rsqrt", "log1p", "reciprocal"):
    _op = getattr(aten, _u).default
    case(f"aten.{_u}.default", unary(_op), POS_NC)
    case(f"aten.{_u}.default", unary(_op), POS.to(torch.bfloat16))

for _b in ("add", "sub", "mul"):
    _t, _s = getattr(aten, _b).Tensor, getattr(aten, _b).Scalar
    case(f"aten.{_b}.Tensor", binary(_t), r(3, 1, 7), NC)              # broadcast + strided
    case(f"aten.{_b}.Tensor", binary(_t), bf(4, 5), r(5))              # bf16 with f32 -> f32
    case(f"aten.{_b}.Tensor", binary(_t), bf(4, 5), r())               # 0-dim f32 keeps bf16
    case(f"aten.{_b}.Tensor", with_number(_t, 0.3), ints(3, 4))        # int with float -> f32
    case(f"aten.{_b}.Scalar", with_number(_s, 2.5), bf(3, 5))
case("aten.add.Tensor", lambda x, y: aten.add.Tensor(x, y, alpha=2), r(3, 5), r(3, 5, seed=3))
case("aten.sub.Tensor", lambda x, y: aten.sub.Tensor(x, y, alpha=0.5), r(3, 5), r(3, 5, seed=3))
case("aten.add.Tensor", lambda x, y: aten.add.Tensor(x, y), ints(3, 5), ints(5, dtype=torch.int32))
case("aten.div.Tensor", lambda x, y: aten.div.Tensor(x, y), r(3, 5), POS_NC[0])
case("aten.div.Tensor", lambda x, y: aten.div.Tensor(x, y), ints(3, 5), ints(5, high=5) + 1)
case("aten.div.Tensor", lambda x, y: aten.div.Tensor(x, y), bf(2, 3, 4), bf(4, low=0.5, high=2.0))
case("aten.div.Scalar", lambda x: aten.div.Scalar(x, 3.0), bf(3, 5))
case("aten.maximum.default", lambda x, y: aten.maximum.default(x, y), r(3, 1), r(1, 5))
case("aten.minimum.default", lambda x, y: aten.minimum.default(x, y), bf(3, 5), bf(5, seed=2))
case("aten.rsub.Scalar", lambda x: aten.rsub.Scalar(x, 1.0), bf(3, 5))
case("aten.rsub.Tensor", lambda x, y: aten.rsub.Tensor(x, y, alpha=2), r(3, 5), r(5))
case("aten.pow.Tensor_Scalar", lambda x: aten.pow.Tensor_Scalar(x, 2), NC)
case("aten.pow.Tensor_Scalar", lambda x: aten.pow.Tensor_Scalar(x, 3), bf(3, 5))
case("aten.pow.Tensor_Scalar", lambda x: aten.pow.Tensor_Scalar(x, -0.5), POS)
case("aten.pow.Tensor_Tensor", lambda x, y: aten.pow.Tensor_Tensor(x, y), POS, r(5))
case("aten.pow.Scalar", lambda x: aten.pow.Scalar(10000.0, x), r(3, 5, low=-1.0, high=0.0))

for _c in ("eq", "ne", "lt", "le", "gt", "ge"):
    _t, _s = getattr(aten, _c).Tensor, getattr(aten, _c).Scalar
    case(f"aten.{_c}.Tensor", binary(_t), ints(3, 5, high=3), ints(5, high=3))
    case(f"aten.{_c}.Tensor", binary(_t), bf(3, 5), r(3, 1))
    case(f"aten.{_c}.Scalar", with_number(_s, 0.25), NC)
case("aten.logical_not.default", lambda x: aten.logical_not.default(x), ints(3, 5, high=2).bool())
case("aten.bitwise_and.Tensor", lambda x, y: aten.bitwise_and.Tensor(x, y), ints(3, 5, high=2).bool(),
     ints(5, high=2).bool())
case("aten.bitwise_or.Tensor", lambda x, y: aten.bitwise_or.Tensor(x, y), ints(3, 5, high=2).bool(),
     ints(3, 1, high=2).bool())
case("aten.bitwise_not.default", lambda x: aten.bitwise_not.default(x), ints(3, 5, high=2).bool())
case("aten.where.self", lambda c, x, y: aten.where.self(c, x, y), ints(3, 1, high=2).bool(), bf(3, 5), r(5))
case("aten.where.self", lambda c, x, y: aten.where.self(c, x, y), ints(7, high=2).bool(), NC, r())
if hasattr(aten.where, "ScalarSelf"):
    direct("aten.where.ScalarSelf", aten.where.ScalarSelf, ints(3, 5, high=2).bool(), 1.5, bf(3, 5))
    direct("aten.where.ScalarOther", aten.where.ScalarOther, ints(5, 7, high=2).bool(), NC, -1.0)
    direct("aten.where.Scalar", aten.where.Scalar, ints(3, 5, high=2).bool(), 1.0, 0.0)
case("aten.masked_fill.Scalar", lambda x, m: aten.masked_fill.Scalar(x, m, -math.inf), bf(3, 5),
     ints(5, high=2).bool())
case("aten.clamp.default", lambda x: aten.clamp.default(x, -0.5, 1.0), NC)
case("aten.clamp.default", lambda x: aten.clamp.default(x, None, 0.25), bf(3, 5))

case("aten._to_copy.default", lambda x: aten._to_copy.default(x, dtype=torch.bfloat16), NC)
case("aten._to_copy.default", lambda x: aten._to_copy.default(x, dtype=torch.float32), bf(3, 5))
case("aten._to_copy.default", lambda x: aten._to_copy.default(x, dtype=torch.int64), r(3, 5) * 4)
case("aten.clone.default", lambda x: aten.clone.default(x) * 2, NC)
# Identity-like ops some tracers drop or rewrite: graphs built by hand.
direct("aten.lift_fresh_copy.default", aten.lift_fresh_copy.default, r(3, 5), then=aten.exp.default)
direct("aten.alias.default", aten.alias.default, r(3, 5), then=aten.exp.default)
direct("aten.detach.default", aten.detach.default, NC, then=aten.exp.default)

direct("aten.silu_backward.default", aten.silu_backward.default, bf(3, 5), bf(3, 5, seed=4))
direct("aten.silu_backward.default", aten.silu_backward.default, NC, r(7, 5, seed=9).t())
case("aten.tanh_backward.default", lambda g, y: aten.tanh_backward.default(g, y), bf(3, 5), bf(3, 5, seed=4))
case("aten.sigmoid_backward.default", lambda g, y: aten.sigmoid_backward.default(g, y), r(3, 5), r(3, 5, seed=4))
case("aten.threshold_backward.default", lambda g, x: aten.threshold_backward.default(g, x, 0.0), NC,
     r(5, 7, seed=9))
case("aten.gelu.default", lambda x: aten.gelu.default(x), NC)
case("aten.gelu.default", lambda x: aten.gelu.default(x, approximate="tanh"), bf(3, 5))
case("aten.gelu_backward.default", lambda g, x: aten.gelu_backward.default(g, x), r(3, 7), NC[:3])
case("aten.gelu_backward.default", lambda g, x: aten.gelu_backward.default(g, x, approximate="tanh"),
     bf(3, 5), bf(3, 5, seed=4))
case("aten.native_dropout_backward.default", lambda g, m: aten.native_dropout_backward.default(g, m, 1.25),
     bf(3, 5), ints(3, 5, high=2).bool())

# --- movement ---------------------------------------------------------------------------------------
case("aten.view.default", lambda x: aten.view.default(x, [5, 3, 2]).exp(), r(6, 5))
case("aten._unsafe_view.default", lambda x: aten._unsafe_view.default(x, [-1]).exp(), r(3, 5))
direct("aten.reshape.default", aten.reshape.default, NC, [7, 5], then=aten.exp.default)   # not viewable
if hasattr(aten, "_reshape_alias"):
    direct("aten._reshape_alias.default", aten._reshape_alias.default, r(3, 5), [5, 3], [3, 1], then=aten.exp.default)
case("aten.expand.default", lambda x: aten.expand.default(x, [2, 3, 5]).exp(), r(3, 1))
case("aten.expand.default", lambda x: aten.expand.default(x, [-1, 4]).exp(), bf(3, 1))
case("aten.permute.default", lambda x: aten.permute.default(x, [2, 0, 1]).exp(), r(2, 3, 5))
case("aten.transpose.int", lambda x: aten.transpose.int(x, -1, 0).exp(), r(2, 3, 5))
case("aten.t.default", lambda x: aten.t.default(x).exp(), NC)
case("aten.unsqueeze.default", lambda x: aten.unsqueeze.default(x, -1).exp(), r(3, 5))
case("aten.squeeze.dim", lambda x: aten.squeeze.dim(x, 1).exp() + aten.squeeze.dim(x, 0).sum(), r(3, 1, 5))
case("aten.squeeze.default", lambda x: aten.squeeze.default(x).exp(), r(1, 3, 1, 5))
if hasattr(aten.squeeze, "dims"):
    case("aten.squeeze.dims", lambda x: aten.squeeze.dims(x, [0, 2]).exp(), r(1, 3, 1, 5))
case("aten.slice.Tensor", lambda x: aten.slice.Tensor(x, 1, 2, 9223372036854775807).exp(), r(3, 7))
case("aten.slice.Tensor", lambda x: aten.slice.Tensor(x, 0, -3, -1, 2).exp(), NC)
case("aten.select.int", lambda x: aten.select.int(x, 1, -2).exp(), r(3, 5, 2))
case("aten.split.Tensor", lambda x: [p.exp() for p in aten.split.Tensor(x, 3, -1)], r(2, 8))
case("aten.split_with_sizes.default", lambda x: [p.exp() for p in aten.split_with_sizes.default(x, [1, 4], 0)], NC)
case("aten.cat.default", lambda x, y: aten.cat.default([x, y.neg()], -1), r(3, 2), NC[:3])
case("aten.cat.default", lambda x, y: aten.cat.default([x, y.neg()], 0), bf(2, 5), r(3, 5))  # promotes
case("aten.constant_pad_nd.default", lambda x: aten.constant_pad_nd.default(x.exp(), [1, 2, 0, 1], 0.5), NC)
case("aten.constant_pad_nd.default", lambda x: aten.constant_pad_nd.default(x.exp(), [-1, 2]), bf(3, 5))
case("aten.flip.default", lambda x: aten.flip.default(x.exp(), [0, -1]), NC)
case("aten.flip.default", lambda x: aten.flip.default(x, [1]) * 2, bf(3, 5))
case("aten.slice_backward.default", lambda g: aten.slice_backward.default(g.exp(), [3, 9], 1, 2, 7, 1), r(3, 5))
case("aten.slice_backward.default", lambda g: aten.slice_backward.default(g.exp(), [6, 5], 0, -3,
                                                                          9223372036854775807, 1), bf(3, 5))

# --- reductions -------------------------------------------------------------------------------------
case("aten.sum.dim_IntList", lambda x: aten.sum.dim_IntList(x, [0, 2]), r(3, 5, 7))
case("aten.sum.dim_IntList", lambda x: aten.sum.dim_IntList(x, [-1], True), bf(3, 37))
case("aten.sum.dim_IntList", lambda x: aten.sum.dim_IntList(x, [0], False, dtype=torch.float32), NC.to(torch.bfloat16))
case("aten.sum.dim_IntList", lambda x: aten.sum.dim_IntList(x, [1]), ints(3, 5, high=2).bool())
case("aten.sum.default", lambda x: aten.sum.default(x), NC)
case("aten.mean.dim", lambda x: aten.mean.dim(x, [-1], True), bf(3, 37))
case("aten.mean.dim", lambda x: aten.mean.dim(x, [0, 1]), NC)
case("aten.mean.default", lambda x: aten.mean.default(x), r(3, 5, 2))
case("aten.amax.default", lambda x: aten.amax.default(x, [1], True), NC)
case("aten.amin.default", lambda x: aten.amin.default(x, [0]), bf(3, 5))
# scans: every dtype and dim in test_torch_backend_scans.py
case("aten.cumsum.default", lambda x: aten.cumsum.default(x, -1), NC)
case("aten.cumsum.default", lambda x: aten.cumsum.default(x, 0, dtype=torch.float32), ints(3, 5, dtype=torch.int32))
case("aten.cumprod.default", lambda x: aten.cumprod.default(x, 1), bf(3, 5))
case("aten.cummax.default", lambda x: aten.cummax.default(x, 0)[0], NC)
case("aten.cummin.default", lambda x: aten.cummin.default(x, -1)[0] * 2, ints(3, 5))
case("aten._softmax.default", lambda x: aten._softmax.default(x, -1, False), r(3, 37, low=-20, high=20))
case("aten._softmax.default", lambda x: aten._softmax.default(x, 0, False), NC.to(torch.bfloat16))
case("aten._log_softmax.default", lambda x: aten._log_softmax.default(x, 1, False), NC)
case("aten._log_softmax.default", lambda x: aten._log_softmax.default(x, -1, False), bf(3, 37, low=-20, high=20))
case("aten._softmax_backward_data.default", lambda g, y: aten._softmax_backward_data.default(
    g, y.softmax(-1), -1, torch.float32), r(3, 7), r(3, 7, seed=5))
case("aten._log_softmax_backward_data.default", lambda g, y: aten._log_softmax_backward_data.default(
    g, y.log_softmax(-1), -1, torch.bfloat16), bf(3, 7), bf(3, 7, seed=5))
case("aten.native_layer_norm.default", lambda x, w, b: aten.native_layer_norm.default(x, [5], w, b, 1e-5),
     r(2, 3, 5), r(5, seed=1), r(5, seed=2))
case("aten.native_layer_norm.default", lambda x: aten.native_layer_norm.default(x, [3, 5], None, None, 1e-5),
     bf(2, 3, 5))
case("aten.native_layer_norm_backward.default", lambda g, x, w, b: aten.native_layer_norm_backward.default(
    g, x, [5], *aten.native_layer_norm.default(x, [5], w, b, 1e-5)[1:], w, b, [True, True, True]),
     r(2, 3, 5, seed=3), r(2, 3, 5), r(5, seed=1), r(5, seed=2))
case("aten.native_layer_norm_backward.default", lambda g, x: aten.native_layer_norm_backward.default(
    g, x, [7], *aten.native_layer_norm.default(x, [7], None, None, 1e-5)[1:], None, None, [True, False, False])[0],
     bf(4, 7, seed=3), bf(4, 7))

TARGET = torch.tensor([3, 0, -100, 6, 1], dtype=torch.int64)
case("aten.nll_loss_forward.default", lambda x, t: aten.nll_loss_forward.default(x.log_softmax(-1), t, None, 1, -100),
     r(5, 7), TARGET)
case("aten.nll_loss_forward.default", lambda x, t: aten.nll_loss_forward.default(x, t, None, 2, -100)[0], NC, TARGET)
case("aten.nll_loss_forward.default", lambda x, t: aten.nll_loss_forward.default(x, t, None, 0, -100)[0], r(5, 7),
     TARGET)
case("aten.nll_loss_backward.default", lambda g, x, t: aten.nll_loss_backward.default(
    g, x, t, None, 1, -100, aten.nll_loss_forward.default(x, t, None, 1, -100)[1]), r(), r(5, 7), TARGET)
case("aten.nll_loss_backward.default", lambda g, x, t: aten.nll_loss_backward.default(
    g, x, t, None, 0, -100, x.new_zeros(())), bf(5), bf(5, 7), TARGET)

# --- matrix products, creation, indexing ---------------------------------------------------------------
case("aten.mm.default", lambda a, b: aten.mm.default(a, b).exp(), r(3, 5), r(7, 5).t())
case("aten.mm.default", lambda a, b: aten.mm.default(a, b), bf(4, 6), bf(6, 5))
case("aten.bmm.default", lambda a, b: aten.bmm.default(a, b), r(2, 3, 5), r(2, 5, 4))
case("aten.addmm.default", lambda c, a, b: aten.addmm.default(c, a, b), r(5), r(3, 4), r(5, 4).t())
case("aten.addmm.default", lambda c, a, b: aten.addmm.default(c, a, b).tanh(), bf(3, 5), bf(3, 4), bf(4, 5))
case("aten.scalar_tensor.default", lambda x: x * aten.scalar_tensor.default(-2.5, dtype=torch.float32), r(3, 5))
case("aten.full.default", lambda x: x + aten.full.default([3, 5], 1.5, dtype=torch.bfloat16), bf(3, 5))
case("aten.zeros.default", lambda x: x + aten.zeros.default([5], dtype=torch.float32), r(3, 5))
case("aten.ones.default", lambda x: x + aten.ones.default([3, 1], dtype=torch.float32), r(3, 5))
case("aten.zeros_like.default", lambda x: x.exp() + aten.zeros_like.default(x), r(3, 5))
case("aten.ones_like.default", lambda x: x.exp() + aten.ones_like.default(x), bf(3, 5))
case("aten.full_like.default", lambda x: x.exp() + aten.full_like.default(x, 2.0), NC)
# empty_like's values are unspecified: the where never picks them (|x| <= 2)
case("aten.empty_like.default", lambda x: aten.where.self(x > 100.0, aten.empty_like.default(x), x.exp()), r(3, 5))
case("aten.fill.Scalar", lambda x: x.exp() + aten.fill.Scalar(x, 3.0), r(3, 5))
case("aten.tril.default", lambda x: aten.tril.default(x.exp()), r(4, 5))
case("aten.triu.default", lambda x: aten.triu.default(x.exp(), 1), r(2, 4, 3))
case("aten.arange.default", lambda x: x + aten.arange.default(5, dtype=torch.float32), r(3, 5))
case("aten.arange.start", lambda x: x + aten.arange.start(2, 7), ints(3, 5))
case("aten.arange.start_step", lambda x: x * aten.arange.start_step(0, 10, 2, dtype=torch.float32), r(3, 5))


def _run_case(name, fn, inputs):
    """(seam's outputs, eager's, the graph's nodes of the overload under test, the partitioned graph)."""
    if isinstance(fn, Direct):
        gm, inputs, op_name, expected = op_graph(fn.op, fn.args, then=fn.then)
        compiled = compile_aten_graph(gm, inputs, STRICT)
        return _as_list(compiled(*inputs)), _as_list(expected), [op_name], compiled
    expected = _as_list(fn(*inputs))
    traced = make_fx(fn)(*inputs)
    names = [n.name for n in traced.graph.nodes if n.op == "call_function" and str(n.target) == name]
    actual, compiled = seam_run(fn, *inputs)
    return actual, expected, names, compiled


def _as_list(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


@pytest.mark.parametrize("name", sorted(CASES))
def test_converter_matches_eager(name):
    for fn, inputs in CASES[name]:
        actual, expected, names, compiled = _run_case(name, fn, inputs)
        assert names, f"the case does not call {name} (on this torch, make it a direct() case)"
        report = compiled.seam_partition
        left = set(names) & set(report.pytorch_nodes)
        assert not left, f"{name}: left to PyTorch: {left}; refused: {report.refused}"
        assert len(actual) == len(expected)
        for a, e in zip(actual, expected):
            assert_matches(a, e)


def test_embedding_with_indexing():
    from seam.torch_backend import CompilationSettings
    w, idx = r(10, 6), ints(3, 4, high=10)
    fn = lambda w, i: aten.embedding.default(w, i).exp()  # noqa: E731
    actual, compiled = seam_run(fn, w, idx, settings=CompilationSettings(fallback=False, indexing=True))
    assert "embedding" not in " ".join(compiled.seam_partition.pytorch_nodes)
    assert_matches(actual[0], fn(w, idx))


def _distinct_rows(rows, extent, columns, seed):
    """An int64 index [rows, columns] naming distinct positions of an axis of `extent` in each column."""
    g = torch.Generator().manual_seed(seed)
    return torch.stack([torch.randperm(extent, generator=g)[:rows] for _ in range(columns)]).t().contiguous()


def test_scatter_with_indexing():
    from seam.torch_backend import CompilationSettings
    x, src = r(6, 4), r(3, 5)
    index = _distinct_rows(3, 6, 4, seed=1)
    settings = CompilationSettings(fallback=False, indexing=True)
    for fn in (lambda x, i, s: aten.scatter.src(x.exp(), 0, i, s).sin(),
               lambda x, i, s: aten.scatter.value(x, -2, i, 2.5) * s[:, :4].sum()):
        actual, compiled = seam_run(fn, x, index, src, settings=settings)
        assert "scatter" not in " ".join(compiled.seam_partition.pytorch_nodes), compiled.seam_partition.refused
        assert_matches(actual[0], fn(x, index, src))
    # Without indexing=True the node stays with PyTorch.
    actual, compiled = seam_run(lambda x, i, s: aten.scatter.src(x, 0, i, s[:, :4]), x, index, src)
    assert "indexing=False" in compiled.seam_partition.refused["aten.scatter.src"]


def test_every_claimed_op_is_tested():
    untested = sorted(set(claimed_ops()) - set(CASES) - {"aten.embedding.default", "aten.scatter.src",
                                                          "aten.scatter.value"})
    assert not untested, f"claimed without a test: {untested}"
