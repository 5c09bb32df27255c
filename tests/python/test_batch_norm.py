"""fd.ops.batch_norm against torch.native_batch_norm: training (batch statistics, running stats
updated in place) and inference (running stats), channels first and last, with and without weight and
bias, in Float, BFloat16 and Double."""

import pytest
import torch

from conftest import close, make
from seam import DataType, FusionDefinition

DT = {torch.float32: DataType.Float, torch.bfloat16: DataType.BFloat16, torch.float64: DataType.Double}


def batch_norm_fd(x, weight, bias, running_mean, running_var, momentum, eps, training, channels_last, device):
    """Runs fd.ops.batch_norm on tensors the caller put on `device`; the running stats are updated in
    place on the tensors passed."""
    tensors = [t for t in (x, weight, bias, running_mean, running_var) if t is not None]
    assert all(t.device.type == torch.device(device).type for t in tensors), "inputs must be on " + device
    with FusionDefinition() as fd:
        handles = iter([fd.define_tensor([-1] * t.dim(), [True] * t.dim(), dtype=DT[t.dtype]) for t in tensors])
        args = [next(handles) if t is not None else None for t in (x, weight, bias, running_mean, running_var)]
        m = fd.define_scalar(momentum, dtype=DataType.Double)
        e = fd.define_scalar(eps, dtype=DataType.Double)
        y, mean, invstd = fd.ops.batch_norm(*args, m, e, training, channels_last=channels_last)
        fd.add_output(y)
        fd.add_output(mean)
        fd.add_output(invstd)
    return fd.execute(tensors)


def tol(dtype):
    return {torch.float32: 1e-5, torch.bfloat16: 1e-5, torch.float64: 1e-12}[dtype]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("channels_last", [False, True])
def test_training_updates_running_stats(dtype, affine, channels_last, device):
    x = make((4, 3, 5, 6), dtype, seed=1)
    stats_dtype = torch.float32 if dtype == torch.bfloat16 else dtype
    weight = make((3,), stats_dtype, seed=2) if affine else None
    bias = make((3,), stats_dtype, seed=3) if affine else None
    rm, rv = make((3,), stats_dtype, seed=4), make((3,), stats_dtype, low=0.5, high=2.0, seed=5)
    ref_rm, ref_rv = rm.clone(), rv.clone()
    xf = x.to(stats_dtype)
    y_ref, mean_ref, invstd_ref = torch.native_batch_norm(xf, weight, bias, ref_rm, ref_rv, True, 0.1, 1e-5)
    x_in = (x.permute(0, 2, 3, 1).contiguous() if channels_last else x).to(device)
    w_dev, b_dev = (None if t is None else t.to(device) for t in (weight, bias))
    rm_dev, rv_dev = rm.to(device), rv.to(device)
    y, mean, invstd = batch_norm_fd(x_in, w_dev, b_dev, rm_dev, rv_dev, 0.1, 1e-5, True, channels_last, device)
    if channels_last:
        y = y.permute(0, 3, 1, 2)
    t = tol(dtype)
    torch.testing.assert_close(y.cpu(), y_ref, rtol=t, atol=t)
    torch.testing.assert_close(mean.cpu(), mean_ref, rtol=t, atol=t)
    torch.testing.assert_close(invstd.cpu(), invstd_ref, rtol=t, atol=t)
    torch.testing.assert_close(rm_dev.cpu(), ref_rm, rtol=t, atol=t)  # updated in place
    torch.testing.assert_close(rv_dev.cpu(), ref_rv, rtol=t, atol=t)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_training_without_running_stats(dtype, device):
    x = make((6, 4, 7), dtype, seed=6)
    y_ref, mean_ref, invstd_ref = torch.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-3)
    y, mean, invstd = batch_norm_fd(x.to(device), None, None, None, None, 0.1, 1e-3, True, False, device)
    close(y, y_ref)
    close(mean, mean_ref)
    close(invstd, invstd_ref)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_inference_uses_running_stats(dtype, device):
    x = make((5, 3, 8), dtype, seed=7)
    weight, bias = make((3,), dtype, seed=8), make((3,), dtype, seed=9)
    rm, rv = make((3,), dtype, seed=10), make((3,), dtype, low=0.5, high=2.0, seed=11)
    before = (rm.clone(), rv.clone())
    y_ref = torch.nn.functional.batch_norm(x, rm.clone(), rv.clone(), weight, bias, False, 0.1, 1e-5)
    rm_dev, rv_dev = rm.to(device), rv.to(device)
    y, mean, invstd = batch_norm_fd(x.to(device), weight.to(device), bias.to(device), rm_dev, rv_dev, 0.1, 1e-5,
                                    False, False, device)
    close(y, y_ref)
    close(mean, before[0])
    close(invstd, torch.rsqrt(before[1] + 1e-5))
    assert torch.equal(rm_dev.cpu(), before[0]) and torch.equal(rv_dev.cpu(), before[1])  # left alone


def test_rejects_unpaired_stats_and_bad_shapes():
    x = make((4, 3, 2))
    with pytest.raises(ValueError, match="come together"):
        batch_norm_fd(x, None, None, make((3,)), None, 0.1, 1e-5, True, False, "cpu")
    with pytest.raises(ValueError, match=r"weight must have shape \[3\]"):
        batch_norm_fd(x, make((4,)), None, None, None, 0.1, 1e-5, True, False, "cpu")
