"""The torch.compile backend's scan converters (aten cumsum, cumprod, cummax, cummin) against eager: every
dtype seam computes in and every dim (negative ones too), the dtype= keyword, 0-d inputs, empty extents,
NaN in cummax/cummin, a scan between pointwise ops (one region), and the nodes left to PyTorch:
cummax/cummin whose indices are read, dtypes seam lacks, a running sum in bool."""

import operator

import pytest
import torch

from seam.torch_backend import compile_aten_graph
from seam.torch_backend.partition import SeamOperatorSupport
from seam.torch_backend.settings import CompilationSettings
from torch_backend_helpers import STRICT, assert_matches, seam_run

aten = torch.ops.aten
SCANS = {"cumsum": torch.cumsum, "cumprod": torch.cumprod,
         "cummax": lambda x, d: torch.cummax(x, d).values, "cummin": lambda x, d: torch.cummin(x, d).values}
DTYPES = [torch.float32, torch.float64, torch.bfloat16, torch.int32, torch.int64, torch.bool]


def sample(shape, dtype, seed=0):
    """Values whose running products stay finite (and integer ones exact): floats in [-1.6, 1.6],
    integers in [-2, 2], bools half True."""
    g = torch.Generator().manual_seed(seed)
    if dtype == torch.bool:
        return torch.rand(shape, generator=g) < 0.5
    if not dtype.is_floating_point:
        return torch.randint(-2, 3, shape, generator=g).to(dtype)
    return (torch.rand(shape, generator=g, dtype=torch.float64) * 3.2 - 1.6).to(dtype)


def in_seam(report, name):
    """Whether every node of the overload `name` ran in a seam region."""
    return not any(n.startswith(name) for n in report.pytorch_nodes)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("name", sorted(SCANS))
def test_every_dim_and_dtype_matches_eager(name, dtype, device):
    x = sample((3, 5, 7), dtype).to(device).transpose(0, 2)  # [7, 5, 3], not contiguous

    def fn(x):  # every dim, negative ones included, joined so that they make one region (one compile)
        return torch.cat([SCANS[name](x, d) for d in range(-x.dim(), x.dim())])

    (out,), gm = seam_run(fn, x)
    assert in_seam(gm.seam_partition, name), gm.seam_partition.refused
    assert len(gm.seam_partition.regions) == 1, gm.seam_partition.regions
    assert_matches(out, fn(x))


@pytest.mark.parametrize("source, target", [(torch.int32, torch.float32), (torch.float32, torch.float64),
                                            (torch.float64, torch.bfloat16), (torch.bool, torch.int32),
                                            (torch.int64, torch.int32), (torch.float32, torch.int64)], ids=str)
def test_the_dtype_keyword_casts_first(source, target, device):
    x = sample((4, 9), source, seed=1).to(device)

    def fn(x):
        return torch.cat([torch.cumsum(x, 1, dtype=target), torch.cumprod(x, -2, dtype=target)])

    (out,), gm = seam_run(fn, x)
    assert not gm.seam_partition.pytorch_nodes, gm.seam_partition.refused
    assert_matches(out, fn(x))


@pytest.mark.parametrize("dtype", [torch.float32, torch.int32, torch.bool], ids=str)
def test_zero_dim_inputs_scan_as_their_element(dtype, device):
    x = sample((), dtype, seed=2).to(device)

    def fn(x):
        return (torch.cumsum(x, 0), torch.cumprod(x, -1), torch.cummax(x, 0).values, torch.cummin(x, -1).values)

    outs, gm = seam_run(fn, x)
    assert not gm.seam_partition.pytorch_nodes, gm.seam_partition.refused
    for a, e in zip(outs, fn(x)):
        assert_matches(a, e)


@pytest.mark.parametrize("shape", [(0, 5), (3, 0)])
def test_empty_extents(shape):
    def fn(x):
        return torch.cumsum(x, 1) * 2, torch.cummax(x, 0).values + 1, torch.cumprod(x.int(), 0)

    x = sample(shape, torch.float32)
    outs, gm = seam_run(fn, x)
    assert not gm.seam_partition.pytorch_nodes, gm.seam_partition.refused
    for a, e in zip(outs, fn(x)):
        assert_matches(a, e)


def _hand_traced(name, x, dim, expected):
    """A one-scan aten graph with recorded values: torch 1.13's CPU kernels have no Half scans, so
    make_fx cannot trace one."""
    g = torch.fx.Graph()
    p = g.placeholder("x")
    p.meta["val"] = x
    node = g.call_function(getattr(aten, name).default, (p, dim))
    if name in ("cummax", "cummin"):
        node.meta["val"] = (expected, torch.zeros(expected.shape, dtype=torch.int64, device=x.device))
        node = g.call_function(operator.getitem, (node, 0))
    node.meta["val"] = expected
    g.output(node)
    return torch.fx.GraphModule(torch.nn.Module(), g)


@pytest.mark.parametrize("name", sorted(SCANS))
def test_half_rounds_each_output_of_a_float_running_value(name, device):
    """As PyTorch's CUDA kernels compute Half scans."""
    x = sample((4, 33), torch.float16, seed=3).to(device)
    for dim in (1, -2):
        expected = SCANS[name](x.float(), dim).half()
        gm = compile_aten_graph(_hand_traced(name, x, dim, expected), [x], STRICT)
        assert not gm.seam_partition.pytorch_nodes, gm.seam_partition.refused
        assert_matches(gm(x), expected)


@pytest.mark.parametrize("name", ["cummax", "cummin"])
def test_extrema_keep_nan_and_signed_zeros(name):
    x = torch.tensor([[1.0, -0.0, 0.0, float("nan"), 5.0, -3.0], [0.0, -0.0, -1.0, 2.0, float("inf"), 1.0]])
    outs, gm = seam_run(lambda x: SCANS[name](x, 1), x)
    assert in_seam(gm.seam_partition, name), gm.seam_partition.refused
    expected = SCANS[name](x, 1)
    assert_matches(outs[0], expected)
    assert torch.equal(torch.signbit(outs[0]), torch.signbit(expected))


def test_a_scan_between_pointwise_ops_stays_in_one_region(device):
    def fn(x, w):
        y = (x * w).exp()
        z = torch.cumsum(y, 1) * torch.cummax(y, 0).values
        return (z + 1.0).sin(), torch.cumprod(x.tanh(), -1) - w

    x, w = sample((6, 5), torch.float32, seed=4).to(device), sample((5,), torch.float32, seed=5).to(device)
    outs, gm = seam_run(fn, x, w)
    report = gm.seam_partition
    assert len(report.regions) == 1 and not report.pytorch_nodes, (report.regions, report.refused)
    for a, e in zip(outs, fn(x, w)):
        assert_matches(a, e)


@pytest.mark.parametrize("name", ["cummax", "cummin"])
def test_read_indices_leave_the_op_to_pytorch(name):
    def fn(x):
        values, indices = getattr(torch, name)(x.exp(), 1)
        return values * 2.0, indices

    x = sample((3, 6), torch.float32, seed=6)
    outs, gm = seam_run(fn, x)
    report = gm.seam_partition
    assert report.pytorch_nodes == [name], report.pytorch_nodes
    assert "indices output is read" in report.refused[f"aten.{name}.default"]
    for a, e in zip(outs, fn(x)):
        assert_matches(a, e)


def test_dtypes_seam_lacks_leave_the_scan_to_pytorch():
    def fn(x):
        return torch.cumsum(x, 0), torch.cummax(x, 1).values

    x = torch.randint(-5, 5, (3, 4), dtype=torch.int8)
    outs, gm = seam_run(fn, x)
    report = gm.seam_partition
    assert sorted(report.pytorch_nodes) == ["cummax", "cumsum"], report.pytorch_nodes
    assert "dtype torch.int8" in report.refused["aten.cumsum.default"]
    for a, e in zip(outs, fn(x)):
        assert_matches(a, e)


def test_a_running_sum_in_bool_is_refused():
    """torch.cumsum(x, 0, dtype=torch.bool): torch 1.13's CPU has no kernel for it, so the node is judged
    on a hand-made graph."""
    x = torch.tensor([True, False, True])
    g = torch.fx.Graph()
    p = g.placeholder("x")
    p.meta["val"] = x
    node = g.call_function(aten.cumsum.default, (p, 0), {"dtype": torch.bool})
    node.meta["val"] = x
    support = SeamOperatorSupport(CompilationSettings())
    assert not support.is_node_supported({}, node)
    assert "running sum or product in bool" in support.refused["aten.cumsum.default"]
