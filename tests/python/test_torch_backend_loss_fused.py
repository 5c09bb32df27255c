"""Fused linear + cross-entropy (python/seam/torch_backend/fused_linear_cross_entropy.py) against eager's
cross_entropy((hidden @ weight.T).float(), target): loss and both gradients, chunked so that several
chunks and a ragged last one run; the chunk size rule; and what it refuses."""

import pytest
import torch
import torch.nn.functional as F

from seam.torch_backend.fused_linear_cross_entropy import (chunk_rows, linear_cross_entropy,
                                                            linear_cross_entropy_supported)


def _case(dtype, rows=37, hidden=16, vocab=101):
    g = torch.Generator().manual_seed(3)
    h = torch.randn(rows, hidden, generator=g).to(dtype).requires_grad_()
    w = (torch.randn(vocab, hidden, generator=g) * 0.3).to(dtype).requires_grad_()
    t = torch.randint(0, vocab, (rows,), generator=g)
    t[5 % rows] = t[6 % rows] = -100
    return h, w, t


def _eager(h, w, t, reduction):
    h, w = h.detach().clone().requires_grad_(), w.detach().clone().requires_grad_()
    loss = F.cross_entropy((h @ w.t()).float(), t, ignore_index=-100, reduction=reduction)
    (loss * 1.5).backward()
    return loss.detach(), h.grad, w.grad


@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_matches_eager(reduction, dtype):
    h, w, t = _case(dtype)
    loss = linear_cross_entropy(h, w, t, reduction=reduction, rows_per_chunk=8)  # 5 chunks, the last of 5
    (loss * 1.5).backward()
    ref_loss, ref_h, ref_w = _eager(h, w, t, reduction)
    assert loss.dtype == torch.float32 and h.grad.dtype == dtype and w.grad.dtype == dtype
    torch.testing.assert_close(loss.detach(), ref_loss, rtol=1e-5, atol=1e-5)
    # bf16: each chunk's products are rounded to bf16 before their f32 sum, as eager's one product is once
    rtol, atol = (1e-5, 1e-6) if dtype == torch.float32 else (1.6e-2, 4e-2 if reduction == "sum" else 2e-3)
    torch.testing.assert_close(h.grad, ref_h, rtol=rtol, atol=atol)
    torch.testing.assert_close(w.grad, ref_w, rtol=rtol, atol=atol)


def test_every_row_ignored_gives_eager_nan_mean_and_zero_gradients():
    h, w, t = _case(torch.float32, rows=4)
    t[:] = -100
    loss = linear_cross_entropy(h, w, t, rows_per_chunk=3)
    loss.backward()
    assert torch.isnan(loss) and torch.isnan(F.cross_entropy(h.detach() @ w.detach().t(), t))
    assert not h.grad.any() and not w.grad.any()


def test_chunk_rows_from_vocabulary_hidden_and_memory():
    cpu, gib = torch.device("cpu"), 1 << 30
    # about vocab / hidden chunks, a power of two: 4 x 2048 rows, vocab 32000, hidden 2048 -> 16 chunks
    assert chunk_rows(8192, 32000, 2048, 2, cpu, budget=20 * gib) == 512
    assert chunk_rows(8192, 151936, 1536, 2, cpu, budget=20 * gib) == 128  # Qwen2: 99 chunks -> 128 rows
    # a budget of 64 MiB holds 55 rows of 151936 (8 bytes each): the power of two below
    assert chunk_rows(8192, 151936, 1536, 2, cpu, budget=64 << 20) == 32
    assert chunk_rows(8192, 32000, 2048, 2, cpu, budget=64 << 20) == 256
    assert chunk_rows(3, 10, 1000, 4, cpu) == 3  # never more than the rows
    assert chunk_rows(100, 10 ** 9, 8, 2, cpu) == 1  # at least one


def test_refuses_what_it_does_not_serve():
    h, w, t = _case(torch.float32)
    assert linear_cross_entropy_supported(h, w, t) is None
    assert "reduction" in linear_cross_entropy_supported(h, w, t, reduction="none")
    assert linear_cross_entropy_supported(h, w, t, label_smoothing=0.1) is not None
    assert linear_cross_entropy_supported(h, w, t, class_weight=torch.ones(101)) is not None
    assert linear_cross_entropy_supported(h.bfloat16(), w, t) is not None
    assert linear_cross_entropy_supported(h[:, :8], w, t) is not None
    with pytest.raises(ValueError, match="reduction"):
        linear_cross_entropy(h, w, t, reduction="none")
