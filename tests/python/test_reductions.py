"""Reductions and the compositions built on them (mean, var, var_mean, welford) against torch eager."""

import math

import pytest
import torch

from conftest import close, make
from seam import DataType, FusionDefinition

DT = {torch.float32: DataType.Float, torch.bfloat16: DataType.BFloat16, torch.float16: DataType.Half,
      torch.float64: DataType.Double, torch.int32: DataType.Int32, torch.int64: DataType.Int, torch.bool: DataType.Bool}


def reduce_fd(x, body, device):
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1] * x.dim(), [True] * x.dim(), dtype=DT[x.dtype])
        out = body(fd, t)
        for o in out if isinstance(out, tuple) else (out,):
            fd.add_output(o)
    return fd.execute([x.to(device)])


@pytest.mark.parametrize("dims", [[0], [1], [-1, 0], 2])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("name", ["sum", "max", "min"])
def test_reductions(name, dims, keepdim, device):
    x = make((4, 5, 6))
    out, = reduce_fd(x, lambda fd, t: getattr(fd.ops, name)(t, dims, keepdim), device)
    d = dims if isinstance(dims, int) else tuple(dims)
    ref = {"sum": lambda: x.sum(d, keepdim=keepdim), "max": lambda: x.amax(d, keepdim=keepdim),
           "min": lambda: x.amin(d, keepdim=keepdim)}[name]()
    close(out, ref)


@pytest.mark.parametrize("dtype", [torch.int32, torch.bool, torch.bfloat16, torch.float64])
def test_sum_dtypes(dtype, device):
    x = make((3, 7), dtype)
    out, = reduce_fd(x, lambda fd, t: fd.ops.sum(t, [1]), device)
    close(out, x.sum(1))  # integers and bool accumulate in Int (int64), like torch


def test_sum_all_dims_and_dtype_argument(device):
    x = make((3, 7), torch.bfloat16)
    outs = reduce_fd(x, lambda fd, t: (fd.ops.sum(t), fd.ops.sum(t, [0], dtype=DataType.Float)), device)
    close(outs[0], x.sum())
    close(outs[1], x.float().sum(0))


def _prod_over(x, dims, keepdim=False):
    """torch.prod takes one dim: the product over several, one at a time (outermost last)."""
    for d in sorted({d % x.dim() for d in dims}, reverse=True):
        x = x.prod(d, keepdim=keepdim)
    return x


@pytest.mark.parametrize("dims", [[0], [1], [-1, 0], [0, 1, 2]])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16, torch.float16])
def test_prod(dims, keepdim, dtype, device):
    x = make((3, 4, 5), dtype, low=0.6, high=1.4)
    out, = reduce_fd(x, lambda fd, t: fd.ops.prod(t, dims, keepdim), device)
    # Half and BFloat16 accumulate in Float and round once at the end.
    expected = _prod_over(x.double(), dims, keepdim).to(dtype)
    close(out, expected)


@pytest.mark.parametrize("dtype", [torch.int32, torch.int64, torch.bool])
def test_prod_of_integers_gives_int(dtype, device):
    x = make((4, 6), dtype, low=-3, high=4)
    x[0, 0] = 0 if dtype != torch.bool else x[0, 0]
    out, = reduce_fd(x, lambda fd, t: fd.ops.prod(t, [1]), device)
    close(out, x.prod(1))  # int64, wrapping
    big = torch.full((2, 70), 3, dtype=torch.int64)
    out, = reduce_fd(big, lambda fd, t: fd.ops.prod(t, [1]), device)
    close(out, big.prod(1))


def test_prod_edges_and_row_kernels(device):
    x = torch.tensor([[0.0, -0.0, 2.0], [math.inf, 0.0, 1.0], [math.nan, 1.0, 1.0], [-1.0, -2.0, -3.0]])
    outs = reduce_fd(x, lambda fd, t: (fd.ops.prod(t, [1]), fd.ops.prod(t)), device)
    close(outs[0], x.prod(1))
    close(outs[1], x.prod())
    empty = torch.empty(3, 0)
    out, = reduce_fd(empty, lambda fd, t: fd.ops.prod(t, [1]), device)
    close(out, torch.ones(3))  # an empty product is 1
    rows = make((16, 3000), torch.float32, low=0.999, high=1.001, seed=5)  # rows long enough for row kernels
    out, = reduce_fd(rows, lambda fd, t: fd.ops.prod(t, [1], dtype=DataType.Double), device)
    torch.testing.assert_close(out.cpu(), rows.double().prod(1), rtol=1e-12, atol=0)
    out, = reduce_fd(rows, lambda fd, t: fd.ops.prod(t, [1]), device)
    torch.testing.assert_close(out.cpu(), rows.prod(1), rtol=1e-4, atol=0)


def test_max_rejects_dtype_and_empty_axis():
    with pytest.raises(ValueError, match="a dtype cannot be given"):
        reduce_fd(make((2, 3)), lambda fd, t: fd.ops.max(t, [0], False, DataType.Float), "cpu")
    with pytest.raises(ValueError, match="extent 0"):
        reduce_fd(torch.empty(0, 3), lambda fd, t: fd.ops.max(t, [0]), "cpu")


@pytest.mark.parametrize("correction", [0, 1])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_var_and_var_mean(correction, keepdim, dtype, device):
    x = make((4, 33), dtype)
    outs = reduce_fd(x, lambda fd, t: (fd.ops.var(t, [1], correction, keepdim),)
                     + fd.ops.var_mean(t, dims=[1], correction=correction, keepdim=keepdim), device)
    xf = x.float()
    var, mean = torch.var_mean(xf, 1, unbiased=bool(correction), keepdim=keepdim)
    torch.testing.assert_close(outs[0].cpu(), var, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(outs[1].cpu(), var, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(outs[2].cpu(), mean, rtol=1e-5, atol=1e-5)


def test_mean_and_welford(device):
    x = make((3, 10))
    outs = reduce_fd(x, lambda fd, t: (fd.ops.mean(t, [1]),) + fd.ops.welford(t, [1]), device)
    close(outs[0], x.mean(1))
    close(outs[1], x.mean(1))
    close(outs[2], ((x - x.mean(1, keepdim=True)) ** 2).sum(1))
    assert outs[3].dtype == torch.int64 and outs[3].tolist() == [10, 10, 10]


def test_layer_norm_like_fusion(device):
    x, w = make((8, 64), torch.bfloat16, seed=1), make((64,), torch.bfloat16, seed=2)
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16)
        t1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16)
        t2 = fd.ops.cast(t0, dtype=DataType.Float)
        var, mean = fd.ops.var_mean(t2, dims=[1], correction=0, keepdim=False)
        eps = fd.define_scalar(1e-05, dtype=DataType.Double)
        mean_b = fd.ops.broadcast_in_dim(mean, shape=t0.shape(), broadcast_dims=[0])
        rstd = fd.ops.rsqrt(fd.ops.add(var, eps))
        rstd_b = fd.ops.broadcast_in_dim(rstd, shape=[t0.size(0), t0.size(1)], broadcast_dims=[0])
        w_b = fd.ops.broadcast_in_dim(fd.ops.cast(t1, DataType.Float), shape=t0.shape(), broadcast_dims=[1])
        y = fd.ops.mul(fd.ops.mul(fd.ops.sub(t2, mean_b), rstd_b), w_b)
        fd.add_output(fd.ops.cast(y, dtype=DataType.BFloat16))
    out = fd.execute([x.to(device), w.to(device)])[0]
    ref = torch.nn.functional.layer_norm(x.float(), (64,), weight=w.float(), eps=1e-5).bfloat16()
    close(out, ref)


def test_reduction_of_every_dim_with_a_dtype_as_second_argument(device):
    """nvFuser's overload op(arg, dtype): every dim reduced, in that dtype."""
    x = make((3, 4), torch.float64, low=0.5, high=1.5)
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1], [True, True], dtype=DataType.Double)
        fd.add_output(fd.ops.prod(t, DataType.Float))
        fd.add_output(fd.ops.sum(t, DataType.Float))
    prod, total = fd.execute([x.to(device)])
    close(prod, torch.prod(x, dtype=torch.float32))
    close(total, torch.sum(x, dtype=torch.float32))
    assert "fd.ops.prod(T0, None, False, DataType.Float)" in repr(fd)
