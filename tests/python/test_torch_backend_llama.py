"""A plain-PyTorch Llama (tests/python/llama_block.py: RMSNorm, RoPE, grouped-query attention, SwiGLU,
cross-entropy) forward and backward through functorch's AOT autograd with seam's regions on the host
backend: logits, loss and every parameter's gradient against eager."""

import pytest
import torch

import seam.torch_backend as tb
from llama_block import TinyLlama


def _step(model, tokens, labels):
    logits, loss = model(tokens, labels)
    loss.backward()
    return logits.detach(), loss.detach()


def _run(dtype, settings, layers=2):
    torch.manual_seed(0)
    model = TinyLlama(layers=layers).to(dtype)
    tokens = torch.randint(0, 64, (2, 9))
    labels = torch.randint(0, 64, (2, 9))
    ref_logits, ref_loss = _step(model, tokens, labels)
    ref_grads = {n: p.grad.clone() for n, p in model.named_parameters()}
    model.zero_grad()
    compiled = []
    logits, loss = _step(tb.aot_compile(model, settings, compiled=compiled), tokens, labels)
    grads = {n: p.grad for n, p in model.named_parameters()}
    return (ref_logits, ref_loss, ref_grads), (logits, loss, grads), compiled


def _max_rel(a, b):
    return ((a.float() - b.float()).abs().max() / b.float().abs().max().clamp_min(1e-6)).item()


@pytest.mark.parametrize("matmul", [True, False], ids=["seam_matmul", "torch_matmul"])
def test_llama_fp32_forward_backward(matmul):
    settings = tb.CompilationSettings(fallback=False, matmul=matmul)
    before = tb.STATS["regions_in_seam"]
    (ref_logits, ref_loss, ref_grads), (logits, loss, grads), compiled = _run(torch.float32, settings)
    assert tb.STATS["regions_in_seam"] > before
    forward, backward = compiled[0].seam_partition, compiled[1].seam_partition
    if matmul:  # everything but the embedding (an indexing op) is one region each way
        assert len(forward.regions) == 1 and len(backward.regions) == 1, (forward, backward)
    else:
        assert any("mm" in n for n in forward.pytorch_nodes), forward.pytorch_nodes
    torch.testing.assert_close(logits, ref_logits, rtol=1e-4, atol=1e-5)
    torch.testing.assert_close(loss, ref_loss, rtol=1e-5, atol=1e-6)
    for name, g in grads.items():
        torch.testing.assert_close(g, ref_grads[name], rtol=1e-4, atol=1e-6, msg=lambda m: f"{name}: {m}")


def test_llama_bf16_forward_backward():
    settings = tb.CompilationSettings(fallback=False)
    (ref_logits, ref_loss, ref_grads), (logits, loss, grads), _ = _run(torch.bfloat16, settings)
    assert logits.dtype == torch.bfloat16
    assert _max_rel(logits, ref_logits) < 0.03
    assert abs(loss.float().item() - ref_loss.float().item()) < 0.02 * abs(ref_loss.float().item())
    for name, g in grads.items():
        assert g.dtype == torch.bfloat16
        assert _max_rel(g, ref_grads[name]) < 0.05, name
