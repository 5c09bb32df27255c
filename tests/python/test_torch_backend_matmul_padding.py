"""The padding rule for unaligned bf16/f16 matrix products (converters/matmul_padding.py): it pads the
products over GPT-2's vocabulary (50257) and not Llama's (32000), nor small products where the copy costs
more than the slow kernel; padded products equal the unpadded ones (CPU, host backend)."""

import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

import seam.torch_backend as tb
from seam.torch_backend.converters import matmul_padding
from seam.torch_backend.converters.matmul_padding import padding_plan

aten = torch.ops.aten
BF16 = torch.bfloat16


@pytest.mark.parametrize("m,n,k", [(8192, 50257, 1024), (8192, 1024, 50257), (50257, 1024, 8192)])
def test_gpt2_lm_head_products_are_padded(m, n, k):
    """The forward product and both of its backward products (the vocabulary as N, K and M)."""
    plan = padding_plan(m, n, k, BF16)
    assert plan is not None
    assert all(e % 64 == 0 or e == orig for e, orig in zip(plan, (m, n, k)))
    assert [e - orig for e, orig in zip(plan, (m, n, k))] == [47 if x == 50257 else 0 for x in (m, n, k)]
    assert padding_plan(m, n, k, torch.float16) is not None


@pytest.mark.parametrize("m,n,k", [(8192, 32000, 2048), (8192, 2048, 32000), (32000, 2048, 8192)])
def test_aligned_products_are_not_padded(m, n, k):
    assert padding_plan(m, n, k, BF16) is None


def test_small_or_float32_products_are_not_padded():
    assert padding_plan(16, 50257, 64, BF16) is None  # the copy of the operand costs more than it saves
    assert padding_plan(8192, 50257, 1024, torch.float32) is None  # TF32/FP32 alignment is another matter
    assert padding_plan(8192, 50257, 1024, BF16, batch=0) is None


@pytest.fixture
def pad_everything(monkeypatch):
    """Small products padded too (the cost model would not pay for them), to check the results on CPU."""
    monkeypatch.setattr(matmul_padding, "MARGIN", -1e30)


def _run(fn, *inputs, device="cpu"):
    inputs = [x.to(device) for x in inputs]
    gm = tb.compile_aten_graph(make_fx(fn)(*inputs), list(inputs), tb.CompilationSettings(fallback=False))
    assert gm.seam_partition.regions, gm.seam_partition.refused
    result = gm(*inputs)
    texts = [t.fusion.text() for name, m in gm.named_modules() if isinstance(m, tb.runtime.SeamRegion)
             for t in m._cache.values()]
    return result, "\n".join(texts)


def _bf(*shape):
    return torch.randn(*shape).to(BF16)


CASES = {
    "mm_n": (lambda a, b: aten.mm.default(a, b), (_bf(6, 16), _bf(16, 13))),
    "mm_k": (lambda a, b: aten.mm.default(a, b), (_bf(6, 13), _bf(13, 16))),
    "mm_m_of_a_transposed": (lambda a, b: aten.mm.default(a.t(), b), (_bf(16, 13), _bf(16, 8))),
    "bmm_all": (lambda a, b: aten.bmm.default(a, b), (_bf(2, 5, 11), _bf(2, 11, 9))),
    "addmm_bias_n": (lambda c, a, b: aten.addmm.default(c, a, b), (_bf(13), _bf(4, 16), _bf(13, 16).t())),
    "addmm_matrix_bias": (lambda c, a, b: aten.addmm.default(c, a, b), (_bf(4, 13), _bf(4, 16), _bf(16, 13))),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_padded_products_equal_the_unpadded(pad_everything, name, device):
    fn, inputs = CASES[name]
    got, text = _run(fn, *inputs, device=device)
    assert "pad(" in text, "the rule did not fire"
    expected = fn(*(x.float() for x in inputs)).to(BF16).to(device)
    assert got.shape == expected.shape and got.dtype == BF16
    torch.testing.assert_close(got.float(), expected.float(), rtol=2e-2, atol=2e-2)


def test_an_operand_read_twice_is_padded_once(pad_everything):
    w = _bf(16, 13)
    got, text = _run(lambda x, y, w: aten.mm.default(x, w) + aten.mm.default(y, w), _bf(8, 16), _bf(8, 16), w)
    assert text.count("pad(") == 1, text
    assert got.shape == (8, 13)


def test_aligned_products_run_unpadded(pad_everything):
    _, text = _run(lambda a, b: aten.mm.default(a, b), _bf(8, 16), _bf(16, 24))
    assert "pad(" not in text


def test_a_transposed_weight_is_padded_as_stored(pad_everything, device):
    """x @ w.t() with w [N, K]: the padding adds rows to w (a copy of rows), not columns to its transpose."""
    x, w = _bf(8, 16), _bf(13, 16)
    got, text = _run(lambda x, w: aten.mm.default(x, aten.t.default(w)), x, w, device=device)
    lines = [line.strip() for line in text.splitlines()]
    pad = next(line for line in lines if "fd.ops.pad(" in line)
    padded = pad.split("fd.ops.pad(")[1].split(",")[0]
    assert any(line.startswith(f"{padded} = fd.ops.permute(") for line in lines), text
    assert "[0, 0, 0, 51]" in pad, pad  # rows of w (the outer dim as stored): 13 -> 64
    torch.testing.assert_close(got.float().cpu(), (x.float() @ w.float().t()).to(BF16).float(), rtol=2e-2,
                               atol=2e-2)
