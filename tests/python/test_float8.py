"""The f8 storage dtypes (DataType.Float8_e4m3fn, Float8_e5m2): casts inside a fusion against hand values
(PyTorch's rounding: nearest even through Float, e4m3fn NaN past 448, e5m2 infinity past 57344), f8
tensors in and out against torch's own casts where torch has them (2.1 and later), and the refusal to
compute on them."""

import math

import pytest
import torch

from seam import DataType, FusionDefinition

HAS_F8 = isinstance(getattr(torch, "float8_e4m3fn", None), torch.dtype)
VALUES = [1.0, 464.0, 500.0, -0.3, 1e-4, 3.0, 57344.0, 61440.0, float("inf"), -0.0]
E4M3FN = [1.0, 448.0, math.nan, -0.3125, 0.0, 3.0, math.nan, math.nan, math.nan, -0.0]
E5M2 = [1.0, 448.0, 512.0, -0.3125, 7 * 2.0 ** -16, 3.0, 57344.0, math.inf, math.inf, -0.0]


def cast_through(x, f8, device):
    with FusionDefinition() as fd:
        t = fd.from_pytorch(x)
        fd.add_output(fd.ops.cast(fd.ops.cast(t, f8), DataType.Float))
    return fd.execute([x.to(device)])[0]


@pytest.mark.parametrize("f8, expected", [(DataType.Float8_e4m3fn, E4M3FN), (DataType.Float8_e5m2, E5M2)])
@pytest.mark.parametrize("source", [torch.float32, torch.float64, torch.bfloat16])
def test_casts_through_f8(f8, expected, source, device):
    x = torch.tensor(VALUES, dtype=torch.float64).to(source)
    out = cast_through(x, f8, device).cpu()
    want = torch.tensor(expected, dtype=torch.float32)
    if source == torch.bfloat16:  # bf16 rounds the inputs first
        want = cast_through(x.float(), f8, "cpu")
    torch.testing.assert_close(out, want, rtol=0, atol=0, equal_nan=True)
    assert torch.equal(torch.signbit(out[-1:]), torch.tensor([True]))


def test_integers_to_f8_go_through_float(device):
    x = torch.tensor([17, 19, 1000, -7], dtype=torch.int32)
    out = cast_through(x, DataType.Float8_e4m3fn, device).cpu()
    torch.testing.assert_close(out, torch.tensor([16.0, 20.0, math.nan, -7.0]), rtol=0, atol=0, equal_nan=True)


def test_f8_does_not_compute():
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1], [True], dtype=DataType.Float)
        f8 = fd.ops.cast(t, DataType.Float8_e5m2)
        fd.add_output(fd.ops.add(f8, f8))
    with pytest.raises(Exception, match="storage dtype"):
        fd.execute([torch.ones(3)])


@pytest.mark.skipif(not HAS_F8, reason="this torch has no float8 dtypes")
@pytest.mark.parametrize("f8", [torch.float8_e4m3fn, torch.float8_e5m2] if HAS_F8 else [])
@pytest.mark.parametrize("source", [torch.float64, torch.float32, torch.float16, torch.bfloat16])
def test_matches_torch_casts(f8, source, device):
    g = torch.Generator().manual_seed(0)
    x = (torch.randn(64, 33, generator=g, dtype=torch.float64) * 300).to(source)
    x[0, :len(VALUES)] = torch.tensor(VALUES, dtype=torch.float64).to(source)
    with FusionDefinition() as fd:
        t = fd.from_pytorch(x)
        y = fd.ops.cast(t, {torch.float8_e4m3fn: DataType.Float8_e4m3fn, torch.float8_e5m2: DataType.Float8_e5m2}[f8])
        fd.add_output(y)
        fd.add_output(fd.ops.cast(fd.ops.permute(y, [1, 0]), DataType.Float))
    out, back = fd.execute([x.to(device)])
    want = x.to(device).to(f8)
    assert out.dtype == f8
    assert torch.equal(out.view(torch.uint8), want.view(torch.uint8))
    torch.testing.assert_close(back, want.float().t(), rtol=0, atol=0, equal_nan=True)
