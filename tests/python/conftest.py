"""Shared fixtures of the Python frontend's tests: every test that takes `device` runs on CPU tensors
(seam's host backend) and, where seam and torch both see a GPU, on CUDA tensors. SEAM_TEST_DEVICES
(e.g. "cuda") restricts the devices."""

import os
import sys

import pytest
import torch

# python/ of this checkout, so that the suite runs with or without PYTHONPATH set.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import seam  # noqa: E402
from seam.reproducer import set_reproducers_quiet_by_default  # noqa: E402

set_reproducers_quiet_by_default(True)  # no reproducer printed for the errors these tests provoke on purpose


def _cuda_ok():
    return torch.cuda.is_available() and seam.cuda_available()


def pytest_configure(config):
    config.addinivalue_line("markers", "cuda: runs on CUDA tensors (skipped without a GPU)")


def _devices():
    wanted = os.environ.get("SEAM_TEST_DEVICES", "cpu,cuda").split(",")
    params = []
    if "cpu" in wanted:
        params.append("cpu")
    if "cuda" in wanted:
        params.append(pytest.param("cuda", marks=[pytest.mark.cuda, pytest.mark.skipif(
            not _cuda_ok(), reason="no GPU for seam and torch")]))
    return params


@pytest.fixture(params=_devices())
def device(request):
    return request.param


def on_device(x, device):
    """x on `device` with its strides kept: Tensor.to makes expanded (stride 0) views contiguous."""
    if x.device.type == torch.device(device).type:
        return x
    storage = x.as_strided((x.untyped_storage().nbytes() // x.element_size(),), (1,), 0)
    return storage.to(device).as_strided(x.shape, x.stride(), x.storage_offset())


def make(shape, dtype=torch.float32, device="cpu", low=None, high=None, seed=None):
    """Random values of a dtype (a fixed seed per shape keeps failures reproducible)."""
    g = torch.Generator().manual_seed(seed if seed is not None else (hash(tuple(shape)) & 0xFFFF))
    if dtype == torch.bool:
        t = torch.rand(shape, generator=g) < 0.5
    elif dtype in (torch.int32, torch.int64):
        t = torch.randint(-8 if low is None else int(low), 8 if high is None else int(high), shape,
                          generator=g, dtype=dtype)
    else:
        lo, hi = (-2.0 if low is None else low), (2.0 if high is None else high)
        t = (torch.rand(shape, generator=g, dtype=torch.float64) * (hi - lo) + lo).to(dtype)
    return t.to(device)


def close(actual, expected, dtype=None):
    """assert_close with tolerances that fit the compute dtype (f16/bf16 computed in f32 and rounded)."""
    assert actual.dtype == expected.dtype, f"dtype {actual.dtype}, expected {expected.dtype}"
    assert actual.shape == expected.shape, f"shape {tuple(actual.shape)}, expected {tuple(expected.shape)}"
    tol = {torch.float16: (1e-3, 1e-3), torch.bfloat16: (8e-3, 8e-3), torch.float32: (1e-5, 1e-5),
           torch.float64: (1e-12, 1e-12)}.get(actual.dtype, (0, 0))
    torch.testing.assert_close(actual.cpu(), expected.cpu(), rtol=tol[0], atol=tol[1], equal_nan=True)
