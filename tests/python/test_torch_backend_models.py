"""Whole models through the backend, forward and backward through functorch's AOT autograd with seam's
regions (host backend on CPU tensors; CUDA tensors too where there is a GPU), logits, loss and every
parameter's gradient against eager: a plain-PyTorch Llama (tests/python/llama_block.py: RMSNorm, RoPE,
grouped-query attention, SwiGLU, cross-entropy) and a GPT-2-style model (tests/python/gpt2_block.py)."""

import difflib
import pytest
import torch

import seam.torch_backend as tb
from gpt2_block import TinyGPT2
from llama_block import TinyLlama

# What may stay in PyTorch in these models: indexing (embedding and its backward), attention where torch
# has scaled_dot_product_attention, views a region would only hand out, and tensors made from numbers that
# only PyTorch's ops read (a region that computes nothing is not formed).
_PYTORCH_OK = {"getitem", "view", "t", "transpose", "unsafe_view", "reshape_alias", "expand", "permute",
               "unsqueeze", "slice", "squeeze", "clone", "detach", "alias", "arange", "ones", "zeros", "full",
               "scalar_tensor", "embedding", "embedding_dense_backward"}
_PYTORCH_OK_PREFIXES = ("scaled_dot_product",)  # _scaled_dot_product_flash_attention(_backward), ...


def _only_expected_pytorch_nodes(compiled):
    for gm in compiled:
        for name in gm.seam_partition.pytorch_nodes:
            base = name.rstrip("0123456789").rstrip("_").lstrip("_")  # _unsafe_view_3 -> unsafe_view
            assert base in _PYTORCH_OK or base.startswith(_PYTORCH_OK_PREFIXES), \
                f"{name} left to PyTorch: {gm.seam_partition.refused}"


def _tolerances(device):
    # CUDA matrix products may use other accumulation orders (and TF32) than eager's
    return (1e-4, 1e-5) if device == "cpu" else (5e-3, 1e-3)


def _compare(model, run, device, settings):
    ref_logits, ref_loss = run(model)
    ref_loss.backward()
    ref_grads = {n: p.grad.clone() for n, p in model.named_parameters()}
    model.zero_grad()
    compiled = []
    logits, loss = run(tb.aot_compile(model, settings, compiled=compiled))
    loss.backward()
    return (ref_logits.detach(), ref_loss.detach(), ref_grads), \
        (logits.detach(), loss.detach(), {n: p.grad for n, p in model.named_parameters()}), compiled


def _assert_close_all(ref, got, device):
    rtol, atol = _tolerances(device)
    torch.testing.assert_close(got[0], ref[0], rtol=rtol, atol=atol)
    torch.testing.assert_close(got[1], ref[1], rtol=rtol / 10, atol=atol / 10)
    for name, g in got[2].items():
        torch.testing.assert_close(g, ref[2][name], rtol=rtol, atol=atol / 10, msg=lambda m: f"{name}: {m}")


def _llama(device, dtype=torch.float32):
    torch.manual_seed(0)
    model = TinyLlama(layers=2).to(device=device, dtype=dtype)
    tokens = torch.randint(0, 64, (2, 9), device=device)
    labels = torch.randint(0, 64, (2, 9), device=device)
    return model, lambda m: m(tokens, labels)


@pytest.mark.parametrize("matmul", [True, False], ids=["seam_matmul", "torch_matmul"])
def test_llama_fp32_forward_backward(device, matmul):
    settings = tb.CompilationSettings(fallback=False, matmul=matmul)
    before = tb.STATS["regions_in_seam"]
    model, run = _llama(device)
    ref, got, compiled = _compare(model, run, device, settings)
    assert tb.STATS["regions_in_seam"] > before
    forward = compiled[0].seam_partition
    if matmul:
        _only_expected_pytorch_nodes(compiled)
    else:
        assert any(n.startswith("mm") for n in forward.pytorch_nodes), forward.pytorch_nodes
    _assert_close_all(ref, got, device)


def _max_rel(a, b):
    return ((a.float() - b.float()).abs().max() / b.float().abs().max().clamp_min(1e-6)).item()


def test_llama_bf16_forward_backward(device):
    """bf16: seam's results deviate from eager bf16 about as much as eager bf16 does from fp32."""
    model, run = _llama(device, torch.bfloat16)
    ref, got, _ = _compare(model, run, device, tb.CompilationSettings(fallback=False))
    assert got[0].dtype == torch.bfloat16
    assert _max_rel(got[0], ref[0]) < 0.03
    assert abs(got[1].float().item() - ref[1].float().item()) < 0.02 * abs(ref[1].float().item())
    for name, g in got[2].items():
        assert g.dtype == torch.bfloat16
        assert _max_rel(g, ref[2][name]) < 0.05, name


def test_gpt2_style_model_forward_backward(device):
    """LayerNorm, addmm + split, tanh-GELU, written-out attention: the converters GPT-2 needs, together."""
    torch.manual_seed(0)
    model = TinyGPT2().to(device)
    tokens = torch.randint(0, 50, (2, 7), device=device)
    ref, got, compiled = _compare(model, lambda m: m(tokens), device, tb.CompilationSettings(fallback=False))
    assert [len(g.seam_partition.regions) for g in compiled] == [1, 1]
    _only_expected_pytorch_nodes(compiled)
    _assert_close_all(ref, got, device)


@pytest.mark.parametrize("partition", ["min-cut", "default"])
def test_llama_layers_share_compiled_regions(partition):
    """With softmax left to PyTorch each layer boundary splits a region; the copies of the middle region
    (one per layer) become one definition, compiled once, whatever order the fuser gave their nodes, and
    whichever region the fuser merged the work on graph inputs alone into (the causal mask, the labels'
    shift: input_only_work.py recomputes it where it is read, or gives it to the first region). Both of AOT
    autograd's partitions: the default one (save what the backward reads) put the labels' work into a
    middle layer's region."""
    try:
        from functorch.compile import default_partition
    except ImportError:
        from torch._functorch.partitioners import default_partition
    torch.manual_seed(0)
    model = TinyLlama(layers=3)
    tokens, labels = torch.randint(0, 64, (2, 9)), torch.randint(0, 64, (2, 9))
    settings = tb.CompilationSettings(fallback=False, torch_executed_ops=frozenset({"aten._softmax.default"}))
    compiled = []
    split = default_partition if partition == "default" else None
    logits, loss = tb.aot_compile(model, settings, compiled=compiled, partition_fn=split)(tokens, labels)
    torch.testing.assert_close(logits, model(tokens, labels)[0], rtol=1e-4, atol=1e-5)
    regions = [m for m in compiled[0].modules() if isinstance(m, tb.runtime.SeamRegion)]
    fusions = [next(iter(r._cache.values())).fusion for r in regions]
    texts = [fusion.text() for fusion in fusions]
    # on a failure, what differs between the two middle layers' definitions
    difference = "\n".join(difflib.unified_diff(repr(fusions[1]).splitlines(), repr(fusions[2]).splitlines(),
                                                 lineterm="", n=1)) if len(fusions) > 2 else ""
    assert len(regions) == 4 and len(set(texts)) == 3, difference
