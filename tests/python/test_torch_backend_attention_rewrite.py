"""The causal-attention rewrite (python/seam/torch_backend/rewrites/attention.py) on torch.fx graphs built
the ways HF transformers builds its SDPA masks: a mask proven to be exactly the causal triangle becomes
is_causal=True without a mask, with results equal to the masked call's; every other mask (sliding window,
padding read from an input, another diagonal, a transposed triangle, an offset) is left alone. Where this
torch has no enable_gqa (< 2.5), the keys and values stay repeated; the repeat's recognition is tested on
its own."""

import pytest
import torch
import torch.fx
import torch.nn.functional as F
from torch.fx.passes.shape_prop import ShapeProp

from seam.torch_backend.rewrites import apply_graph_rewrites
from seam.torch_backend.rewrites.attention import _sdpa_targets, plain_head_repeat, rewrite_causal_attention, \
    torch_has_gqa
from seam.torch_backend.rewrites.mask_graph import MaskReader, is_causal_mask
from seam.torch_backend.settings import CompilationSettings

B, H, KV_HEADS, T, D = 2, 4, 2, 7, 8
_NEW_SDPA = hasattr(F, "scaled_dot_product_attention")


def _sdpa(q, k, v, mask):
    if _NEW_SDPA:
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=0.0, is_causal=False)
    return F._scaled_dot_product_attention(q, k, v, mask, 0.0, False, False)[0]


def _hf_arange_mask(like, mask_function, q_offset=0, kv_offset=0, batch=B):
    """HF transformers 5's sdpa_mask without vmap: aranges broadcast over (batch, head, q, kv). The device
    is `like`'s, as in HF's code."""
    device = like.device
    batch_arange = torch.arange(batch, device=device)
    head_arange = torch.arange(1, device=device)
    q_arange = torch.arange(T, device=device) + q_offset
    kv_arange = torch.arange(T, device=device) + kv_offset
    mask = mask_function(batch_arange[:, None, None, None], head_arange[None, :, None, None],
                         q_arange[None, None, :, None], kv_arange[None, None, None, :])
    return mask.expand(batch, -1, T, T)


class _RecordingTracer(torch.fx.Tracer):
    """torch.fx's tracer, recording torch.arange and torch.ones as calls (as Dynamo does) rather than running
    them: symbolic_trace folds what depends on no input into a constant."""

    RECORDED = ("arange", "ones")

    def trace(self, root, concrete_args=None):
        originals = {name: getattr(torch, name) for name in self.RECORDED}
        for name, fn in originals.items():
            setattr(torch, name, lambda *a, _fn=fn, **k: self.create_proxy("call_function", _fn, a, k))
        try:
            return super().trace(root, concrete_args)
        finally:
            for name, fn in originals.items():
                setattr(torch, name, fn)


def _trace(module):
    gm = torch.fx.GraphModule(module, _RecordingTracer().trace(module))
    gm.graph.eliminate_dead_code()  # (the batch and head aranges a mask function ignores)
    gm.recompile()
    return gm


def _causal(b, h, q, kv):
    return kv <= q


def _and_masks(*functions):
    def combined(b, h, q, kv):
        result = q.new_ones((), dtype=torch.bool)
        for fn in functions:
            result = result & fn(b, h, q, kv).to(result.device)
        return result
    return combined


class _Attention(torch.nn.Module):
    def __init__(self, make_mask, slice_mask=True):
        super().__init__()
        self.make_mask, self.slice_mask = make_mask, slice_mask

    def forward(self, q, k, v, padding):
        mask = self.make_mask(padding)
        if self.slice_mask:  # HF's sdpa_attention_forward slices the mask to the keys' length
            mask = mask[:, :, :, :T]
        return _sdpa(q, k, v, mask)


CAUSAL = {
    "hf_causal": lambda p: _hf_arange_mask(p, _causal),
    "hf_and_masks": lambda p: _hf_arange_mask(p, _and_masks(_causal)),
    "tril_of_ones": lambda p: torch.ones(T, T, dtype=torch.bool, device=p.device).tril()[None, None].expand(B, 1, T, T),
    "ge_written_the_other_way": lambda p: _hf_arange_mask(p, lambda b, h, q, kv: q >= kv),
    "not_of_strictly_above": lambda p: _hf_arange_mask(p, lambda b, h, q, kv: ~(kv > q)),
    "lt_of_next": lambda p: _hf_arange_mask(p, lambda b, h, q, kv: kv < q + 1),
    "both_offset_alike": lambda p: _hf_arange_mask(p, _causal, q_offset=3, kv_offset=3),
    "triu_of_ones_transposed": lambda p: torch.ones(T, T, dtype=torch.bool, device=p.device).triu().t()[None, None].expand(B, 1, T, T),
}

NOT_CAUSAL = {
    "sliding_window": lambda p: _hf_arange_mask(p, _and_masks(_causal, lambda b, h, q, kv: kv > q - 3)),
    "padding_from_an_input": lambda p: _hf_arange_mask(p, _and_masks(_causal, lambda b, h, q, kv: p[b, kv])),
    "padding_mask_anded": lambda p: _hf_arange_mask(p, _causal) & p[:, None, None, :],
    "off_by_one_diagonal": lambda p: _hf_arange_mask(p, lambda b, h, q, kv: kv <= q + 1),
    "strictly_below": lambda p: _hf_arange_mask(p, lambda b, h, q, kv: kv < q),
    "transposed": lambda p: _hf_arange_mask(p, _causal).transpose(-1, -2),
    "upper_triangle": lambda p: _hf_arange_mask(p, lambda b, h, q, kv: q <= kv),
    "kv_offset_only": lambda p: _hf_arange_mask(p, _causal, kv_offset=1),
    "tril_diagonal_1": lambda p: torch.ones(T, T, dtype=torch.bool, device=p.device).tril(1)[None, None].expand(B, 1, T, T),
    "causal_or_first_column": lambda p: _hf_arange_mask(p, lambda b, h, q, kv: (kv <= q) | (kv <= 0)),
    "eq_diagonal": lambda p: _hf_arange_mask(p, lambda b, h, q, kv: kv == q),
    "a_mask_input": lambda p: p[:, None, None, :].expand(B, 1, T, T),
}


def _inputs():
    torch.manual_seed(0)
    q = torch.randn(B, H, T, D)
    k, v = torch.randn(B, H, T, D), torch.randn(B, H, T, D)
    padding = torch.ones(B, T, dtype=torch.bool)
    padding[0, :2] = False  # a real padding mask: rewriting it away would change the result
    return q, k, v, padding


def _sdpa_nodes(gm):
    return [n for n in gm.graph.nodes if n.op == "call_function" and n.target in _sdpa_targets()]


@pytest.mark.parametrize("name", sorted(CAUSAL))
def test_causal_masks_are_recognized_and_results_match(name):
    gm = _trace(_Attention(CAUSAL[name]))
    inputs = _inputs()
    expected = gm(*inputs)
    counts = apply_graph_rewrites(gm, CompilationSettings(fallback=False))
    assert counts["causal_attention"] == 1
    node, = _sdpa_nodes(gm)
    assert node.kwargs.get("attn_mask") is None and len(node.args) == 3
    assert node.kwargs["is_causal"] is True
    assert not [n for n in gm.graph.nodes if n.op == "call_function" and n.target is torch.arange], \
        "the mask's nodes stay in the graph"
    torch.testing.assert_close(gm(*inputs), expected, equal_nan=True)


@pytest.mark.parametrize("name", sorted(NOT_CAUSAL))
def test_other_masks_are_left_alone(name):
    gm = _trace(_Attention(NOT_CAUSAL[name]))
    inputs = _inputs()
    expected = gm(*inputs)
    before = gm.code
    assert rewrite_causal_attention(gm) == 0
    assert gm.code == before
    torch.testing.assert_close(gm(*inputs), expected, equal_nan=True)


def test_a_mask_whose_rows_broadcast_is_not_causal():
    """A single row (extent 1) broadcast over the queries is not the triangle, though j <= i holds at i=0."""
    def one_row(p):
        q_arange = torch.arange(1)
        kv_arange = torch.arange(T)
        return (kv_arange[None, None, None, :] <= q_arange[None, None, :, None]).expand(B, 1, T, T)
    gm = _trace(_Attention(one_row, slice_mask=False))
    assert rewrite_causal_attention(gm) == 0


def test_a_symbolic_length_is_not_proven():
    """An arange whose length is a node (a size the tracer did not fix) proves nothing."""
    class Symbolic(torch.nn.Module):
        def forward(self, q, k, v):
            n = q.shape[2]
            ar = torch.arange(n)
            return _sdpa(q, k, v, ar[None, :] <= ar[:, None])
    gm = _trace(Symbolic())
    assert rewrite_causal_attention(gm) == 0
    q, k, v, _ = _inputs()
    gm(q, k, v)


def test_the_mask_algebra_states_values_it_can_and_refuses_the_rest():
    gm = _trace(_Attention(CAUSAL["hf_causal"], slice_mask=False))
    reader = MaskReader()
    node, = _sdpa_nodes(gm)
    mask = node.args[3] if len(node.args) > 3 else node.kwargs["attn_mask"]
    value = reader.read(mask)
    assert value.shape == (B, 1, T, T) and is_causal_mask(value)
    placeholder = next(n for n in gm.graph.nodes if n.op == "placeholder")
    assert reader.read(placeholder) is None


class _Repeat(torch.nn.Module):
    """Keys [B, KV_HEADS, T, D] repeated to twice the heads, with the shapes as constants (as Dynamo
    records them)."""

    def __init__(self, how):
        super().__init__()
        self.how = how

    def forward(self, k):
        b, h, s, d = B, KV_HEADS, T, D
        if self.how == "hf":
            return k[:, :, None, :, :].expand(b, h, 2, s, d).reshape(b, h * 2, s, d)
        if self.how == "interleave":
            return k.repeat_interleave(2, dim=1)
        if self.how == "tiled":  # [k, k]: head h reads head h % H, not h // 2
            return k[:, None].expand(b, 2, h, s, d).reshape(b, 2 * h, s, d)
        return k[:, :, :, None].expand(b, h, s, 2, d).reshape(b, h, 2 * s, d)  # repeats along the sequence


@pytest.mark.parametrize("how,recognized", [("hf", True), ("interleave", True), ("tiled", False),
                                            ("sequence", False)])
def test_plain_head_repeats_are_recognized(how, recognized):
    k = torch.randn(B, KV_HEADS, T, D)
    gm = torch.fx.symbolic_trace(_Repeat(how))
    ShapeProp(gm).propagate(k)
    out = next(n for n in gm.graph.nodes if n.op == "output").args[0]
    found = plain_head_repeat(out)
    assert (found is not None) == recognized
    if recognized:
        x, repeats = found
        assert x.op == "placeholder" and repeats == 2
        # the head order SDPA's enable_gqa uses: query head h reads kv head h // repeats
        torch.testing.assert_close(gm(k), k.repeat_interleave(2, dim=1))


def test_the_option_turns_the_rewrite_off():
    gm = _trace(_Attention(CAUSAL["hf_causal"]))
    assert "causal_attention" not in apply_graph_rewrites(gm, CompilationSettings(causal_attention=False))
    node, = _sdpa_nodes(gm)
    assert any(isinstance(a, torch.fx.Node) and a.op != "placeholder" for a in node.args[3:]) or \
        node.kwargs.get("attn_mask") is not None


class _GroupedAttention(torch.nn.Module):
    """HF's repeat_kv on keys and values [B, KV_HEADS, T, D] before a causal-masked SDPA call."""

    def forward(self, q, k, v, padding):
        rep = H // KV_HEADS
        k = k[:, :, None, :, :].expand(B, KV_HEADS, rep, T, D).reshape(B, H, T, D)
        v = v[:, :, None, :, :].expand(B, KV_HEADS, rep, T, D).reshape(B, H, T, D)
        return _sdpa(q, k, v, _hf_arange_mask(padding, _causal)[:, :, :, :T])


@pytest.mark.skipif(not torch_has_gqa(), reason="SDPA's enable_gqa needs torch >= 2.5")
def test_repeated_kv_heads_become_enable_gqa():
    torch.manual_seed(0)
    q = torch.randn(B, H, T, D)
    k, v = torch.randn(B, KV_HEADS, T, D), torch.randn(B, KV_HEADS, T, D)
    padding = torch.ones(B, T, dtype=torch.bool)
    gm = _trace(_GroupedAttention())
    ShapeProp(gm).propagate(q, k, v, padding)  # the shapes Dynamo's example values give
    expected = gm(q, k, v, padding)
    assert rewrite_causal_attention(gm) == 1
    gm.recompile()
    node, = _sdpa_nodes(gm)
    assert node.kwargs["enable_gqa"] is True and node.kwargs["is_causal"] is True
    assert [a.op for a in node.args] == ["placeholder"] * 3
    torch.testing.assert_close(gm(q, k, v, padding), expected)
