"""The torch.compile backend's aten.flip converter against eager: every dim and set of dims (negative ones
too), every dtype, non-contiguous inputs, empty extents and 0-d inputs, a flip between pointwise ops (one
region, one kernel), the reversed running sum of cumsum's backward, and dims PyTorch refuses (left to it,
so that it raises)."""

import re

import pytest
import torch

from torch_backend_helpers import seam_run

DTYPES = [torch.float32, torch.float64, torch.bfloat16, torch.float16, torch.int32, torch.int64, torch.bool]


def sample(shape, dtype, seed=0):
    g = torch.Generator().manual_seed(seed)
    if dtype == torch.bool:
        return torch.rand(shape, generator=g) < 0.5
    if not dtype.is_floating_point:
        return torch.randint(-100, 100, shape, generator=g).to(dtype)
    return torch.randn(shape, generator=g, dtype=torch.float64).to(dtype)


def kernels(gm):
    """The kernels seam's regions in `gm` ran last (from their segmentation reports) and their CUDA code."""
    count, code = 0, ""
    for module in gm.modules():
        for translation in getattr(module, "_cache", {}).values():
            spec = getattr(translation, "spec", None)
            if spec is not None:
                count += int(re.search(r"^kernels: (\d+)$", spec.executable().segmentation(), re.M).group(1))
                code += spec.executable().cuda_source()
    return count, code


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_every_set_of_dims_matches_eager(dtype, device):
    x = sample((3, 4, 5), dtype).to(device).transpose(0, 2)  # [5, 4, 3], not contiguous
    dim_sets = [[0], [1], [2], [-1], [0, 2], [-3, -2], [2, 0, 1], []]

    def fn(x):
        return tuple(torch.flip(x, d) for d in dim_sets)

    outs, gm = seam_run(fn, x)
    assert not gm.seam_partition.pytorch_nodes, gm.seam_partition.refused
    for a, e in zip(outs, fn(x)):
        assert a.dtype == e.dtype and torch.equal(a, e)


@pytest.mark.parametrize("shape, dims", [((0, 5), [0]), ((3, 0), [1]), ((4, 0, 2), [0, 2]), ((), [])])
def test_empty_extents_and_zero_dim(shape, dims, device):
    x = sample(shape, torch.float32, seed=1).to(device)

    def fn(x):
        return torch.flip(x, dims) * 2.0

    (out,), gm = seam_run(fn, x)
    assert not gm.seam_partition.pytorch_nodes, gm.seam_partition.refused
    assert torch.equal(out, fn(x))


def test_a_flip_between_pointwise_ops_is_one_kernel(device):
    def fn(x, w):
        return (torch.flip(x * w, [1]).exp() + torch.flip(x, [0, 1])).sin()

    x, w = sample((6, 40), torch.float32, seed=2).to(device), sample((40,), torch.float32, seed=3).to(device)
    (out,), gm = seam_run(fn, x, w)
    report = gm.seam_partition
    assert len(report.regions) == 1 and not report.pytorch_nodes, (report.regions, report.refused)
    torch.testing.assert_close(out, fn(x, w), rtol=2e-5, atol=2e-5)
    count, code = kernels(gm)
    assert count == 1
    assert "seam_index_error" not in code  # the flips' positions are in range: nothing checked or waited for


def test_the_reversed_running_sum_of_cumsums_backward(device):
    """cumsum's gradient: the incoming gradient summed from the end, flip(cumsum(flip(g)))."""
    def fn(g):
        return torch.flip(torch.cumsum(torch.flip(g, [1]), 1), [1])

    g = sample((5, 70), torch.float32, seed=4).to(device)
    (out,), gm = seam_run(fn, g)
    assert not gm.seam_partition.pytorch_nodes, gm.seam_partition.refused
    torch.testing.assert_close(out, fn(g), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dims", [[0, 0], [1, -1], [2]])
def test_dims_pytorch_refuses_stay_with_pytorch(dims):
    x = sample((3, 4), torch.float32, seed=5)
    g = torch.fx.Graph()
    p = g.placeholder("x")
    p.meta["val"] = x
    node = g.call_function(torch.ops.aten.flip.default, (p, dims))
    node.meta["val"] = x
    g.output(node)
    from seam.torch_backend.partition import SeamOperatorSupport
    from seam.torch_backend.settings import CompilationSettings
    support = SeamOperatorSupport(CompilationSettings())
    assert not support.is_node_supported({}, node)
    assert "out of range or repeated" in support.refused["aten.flip.default"]
