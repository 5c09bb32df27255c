"""Fused linear + cross-entropy (python/seam/torch_backend/fused_linear_cross_entropy.py) against eager's
cross_entropy((hidden @ weight.T).float(), target): loss and both gradients, chunked so that several
chunks and a ragged last one run; the chunk size rule; and what it refuses."""

import pytest
import torch
import torch.nn.functional as F

from seam.torch_backend.fused_linear_cross_entropy import (chunk_rows, linear_cross_entropy,
                                                            linear_cross_entropy_supported)


def _case(dtype, rows=37, hidden=16, vocab=101, device="cpu"):
    g = torch.Generator().manual_seed(3)
    h = torch.randn(rows, hidden, generator=g).to(device=device, dtype=dtype).requires_grad_()
    w = (torch.randn(vocab, hidden, generator=g) * 0.3).to(device=device, dtype=dtype).requires_grad_()
    t = torch.randint(0, vocab, (rows,), generator=g).to(device)
    t[5 % rows] = t[6 % rows] = -100
    return h, w, t


def _eager(h, w, t, reduction):
    h, w = h.detach().clone().requires_grad_(), w.detach().clone().requires_grad_()
    loss = F.cross_entropy((h @ w.t()).float(), t, ignore_index=-100, reduction=reduction)
    (loss * 1.5).backward()
    return loss.detach(), h.grad, w.grad


@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_matches_eager(reduction, dtype, device):
    h, w, t = _case(dtype, device=device)
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
    # at least twice the hidden size, a power of two: the f32 weight gradient's accumulation per chunk
    # moves at most half of the chunk's logits
    assert chunk_rows(8192, 32000, 2048, 2, cpu, budget=20 * gib) == 4096
    assert chunk_rows(8192, 151936, 1536, 2, cpu, budget=20 * gib) == 4096  # Qwen2 1.5B: 2 chunks
    assert chunk_rows(4096, 151936, 896, 2, cpu, budget=20 * gib) == 2048  # Qwen2 0.5B: 2 chunks
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


# --- the graph rewrite that routes lm_head + cross-entropy to the fused op -----------------------------

class _CausalLM(torch.nn.Module):
    """The last step of an HF causal LM: lm_head, logits returned, ForCausalLMLoss's upcast, shift (pad
    with the ignore_index, slice), flatten and cross_entropy."""

    def __init__(self, hidden=16, vocab=101, dtype=torch.float32, reduction="mean", smoothing=0.0):
        super().__init__()
        self.lm_head = torch.nn.Linear(hidden, vocab, bias=False).to(dtype)
        self.vocab, self.reduction, self.smoothing = vocab, reduction, smoothing

    def forward(self, hidden_states, labels):
        logits = self.lm_head(hidden_states)
        labels = F.pad(labels, (0, 1), value=-100)[..., 1:].contiguous()
        loss = F.cross_entropy(logits.float().view(-1, self.vocab), labels.view(-1), ignore_index=-100,
                               reduction=self.reduction, label_smoothing=self.smoothing)
        return logits, loss


def _rewritten(model):
    from seam.torch_backend.rewrites.linear_cross_entropy import rewrite_linear_cross_entropy

    gm = torch.fx.symbolic_trace(model)
    count = rewrite_linear_cross_entropy(gm)
    gm.graph.lint()
    gm.recompile()
    return gm, count


@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_rewrite_routes_lm_head_and_cross_entropy_to_the_fused_op(reduction, dtype):
    from seam.torch_backend.fused_linear_cross_entropy import linear_cross_entropy_call

    torch.manual_seed(0)
    model = _CausalLM(dtype=dtype, reduction=reduction)
    gm, count = _rewritten(model)
    assert count == 1
    assert any(n.target is linear_cross_entropy_call for n in gm.graph.nodes)
    assert not any(n.target is F.cross_entropy for n in gm.graph.nodes)
    h = torch.randn(2, 9, 16).to(dtype)
    labels = torch.randint(0, 101, (2, 9))
    labels[0, 3] = -100
    results = []
    for fn in (model, gm):
        model.zero_grad()
        x = h.clone().requires_grad_()
        logits, loss = fn(x, labels)
        loss.backward()
        results.append((logits.detach(), loss.detach(), x.grad, model.lm_head.weight.grad.clone()))
    (ref_logits, ref_loss, ref_h, ref_w), (logits, loss, gh, gw) = results
    torch.testing.assert_close(logits, ref_logits, rtol=0, atol=0)
    torch.testing.assert_close(loss, ref_loss, rtol=1e-5, atol=1e-5)
    rtol, atol = (1e-5, 1e-6) if dtype == torch.float32 else (1.6e-2, 4e-2)
    torch.testing.assert_close(gh, ref_h, rtol=rtol, atol=atol)
    torch.testing.assert_close(gw, ref_w, rtol=rtol, atol=atol)


def test_rewrite_leaves_what_the_fused_op_does_not_serve():
    assert _rewritten(_CausalLM(smoothing=0.1))[1] == 0
    assert _rewritten(_CausalLM(reduction="none"))[1] == 0
    assert _rewritten(_CausalLM(dtype=torch.bfloat16).to(torch.float32))[1] == 1  # f32 weights, no upcast needed

    class NoUpcast(_CausalLM):  # bf16 logits straight into cross_entropy: eager's loss is bf16
        def forward(self, h, labels):
            return F.cross_entropy(self.lm_head(h).view(-1, self.vocab), labels.view(-1))

    assert _rewritten(NoUpcast(dtype=torch.bfloat16))[1] == 0

    class OtherView(_CausalLM):  # a view that does not flatten the rows to [-1, vocab]
        def forward(self, h, labels):
            return F.cross_entropy(self.lm_head(h).float().view(-1, 1, self.vocab)[:, 0], labels.view(-1))

    assert _rewritten(OtherView())[1] == 0


def _has_dynamo():
    from seam.torch_backend.registration import has_dynamo
    return has_dynamo() and hasattr(torch.library, "custom_op")


@pytest.mark.skipif(not _has_dynamo(), reason="needs torch.compile and torch.library.custom_op (torch >= 2.4)")
def test_torch_compile_routes_the_loss_to_the_fused_operator():
    import seam  # noqa: F401 (registers backend="seam")
    import seam.torch_backend as tb

    torch.manual_seed(0)
    model = _CausalLM()
    h = torch.randn(2, 9, 16)
    labels = torch.randint(0, 101, (2, 9))
    results = []
    tb.REPORTS.clear()
    for fn in (model, torch.compile(model, backend="seam", options={"linear_cross_entropy": True,
                                                                    "fallback": False})):
        model.zero_grad()
        x = h.clone().requires_grad_()
        logits, loss = fn(x, labels)
        loss.backward()
        results.append((logits.detach(), loss.detach(), x.grad, model.lm_head.weight.grad.clone()))
    for got, ref in zip(results[1], results[0]):
        torch.testing.assert_close(got, ref, rtol=1e-5, atol=1e-5)
    pytorch_nodes = [n for report in tb.REPORTS for n in report.pytorch_nodes]
    assert any("linear_cross_entropy" in n for n in pytorch_nodes), pytorch_nodes
