"""fd.ops.cumsum (legacy and nvfuser_direct frontends) against torch.cumsum: every dtype (integer and bool
inputs sum in int64, Half/BFloat16 outputs rounded from a Float running sum), negative dims, rows that
take the rows kernel (long innermost lines) and the lines kernel (other axes, short rows), views, and
pointwise work on either side."""

import pytest
import torch

from conftest import close, make
from seam import DataType, FusionDefinition

DT = {torch.float32: DataType.Float, torch.bfloat16: DataType.BFloat16, torch.float16: DataType.Half,
      torch.float64: DataType.Double, torch.int32: DataType.Int32, torch.int64: DataType.Int, torch.bool: DataType.Bool}


def run(x, body, device, fd_class=FusionDefinition):
    with fd_class() as fd:
        t = fd.from_pytorch(x)
        out = body(fd, t)
        for o in out if isinstance(out, tuple) else (out,):
            fd.add_output(o)
    return fd.execute([x.to(device)])


def reference(x, dim):
    """torch.cumsum; Half and BFloat16 as PyTorch's CUDA kernel computes them (a Float running sum, each
    output rounded), which torch 1.13's CPU kernels lack."""
    if x.dtype in (torch.float16, torch.bfloat16):
        return torch.cumsum(x.float(), dim).to(x.dtype)
    return torch.cumsum(x, dim)


def scan_close(actual, expected, length):
    """Float running sums over `length` values in [-2, 2) drift from torch's (a double sum on the CPU)."""
    assert actual.dtype == expected.dtype, f"dtype {actual.dtype}, expected {expected.dtype}"
    drift = 4e-7 * length
    tol = {torch.float16: (2e-3, 2e-3 + drift), torch.bfloat16: (1.6e-2, 1.6e-2 + drift),
           torch.float32: (1e-5, 1e-5 + drift), torch.float64: (1e-10, 1e-10)}.get(actual.dtype, (0, 0))
    torch.testing.assert_close(actual.cpu(), expected.cpu(), rtol=tol[0], atol=tol[1])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int32,
                                   torch.int64, torch.bool])
@pytest.mark.parametrize("dim", [0, 1, -1, -2])
def test_cumsum_dtypes_and_dims(dtype, dim, device):
    x = make((6, 130), dtype)
    out, = run(x, lambda fd, t: fd.ops.cumsum(t, dim), device)
    scan_close(out, reference(x, dim), x.shape[dim])


@pytest.mark.parametrize("length", [1, 31, 32, 33, 1000, 4097, 100000])
def test_cumsum_row_lengths(length, device):
    x = make((3, length))
    out, = run(x, lambda fd, t: fd.ops.cumsum(t, -1), device)
    scan_close(out, torch.cumsum(x, -1), length)


def test_cumsum_middle_axis_and_keyword_dim(device):
    x = make((4, 50, 3), torch.int32)
    out, = run(x, lambda fd, t: fd.ops.cumsum(t, dim=1), device)
    close(out, torch.cumsum(x, 1))


def test_cumsum_of_a_transposed_view_and_pointwise_around(device):
    x = make((200, 6), torch.bfloat16).t()  # a non-contiguous input

    def body(fd, t):
        y = fd.ops.cumsum(fd.ops.mul(t, 2.0), 1)
        return fd.ops.exp(fd.ops.mul(y, 0.01)), fd.ops.cumsum(fd.ops.permute(t, [1, 0]), 0)

    exp_y, z = run(x, body, device)
    scan_close(exp_y, torch.exp(torch.cumsum(x.float() * 2.0, 1) * 0.01), 200)
    scan_close(z, reference(x.t(), 0), 200)


def test_cumsum_rank_zero(device):
    x = torch.tensor(2.5)
    out, = run(x, lambda fd, t: fd.ops.cumsum(t, 0), device)
    close(out, torch.cumsum(x, 0))


def test_cumsum_bad_dim_names_the_op():
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1], [True, True])
        out = fd.ops.cumsum(t, 2)
        fd.add_output(out)
    with pytest.raises(Exception, match="dim 2 is out of range"):
        fd.execute([torch.ones(2, 3)])


def test_cumsum_direct_frontend_and_printed_definition(device):
    import nvfuser_direct
    x = make((5, 70), torch.float16)
    out, = run(x, lambda fd, t: fd.ops.cumsum(t, -1), device, nvfuser_direct.FusionDefinition)
    scan_close(out, reference(x, -1), 70)
    with nvfuser_direct.FusionDefinition() as fd:
        t = fd.from_pytorch(x)
        fd.add_output(fd.ops.cumsum(t, -1))
    assert "fd.ops.cumsum(" in repr(fd)
