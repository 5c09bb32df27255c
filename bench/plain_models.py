"""HF-style Llama, Qwen2 and GPT-2 causal LMs in plain PyTorch (transformers is not needed), built to be
traced at the benchmark's shapes (bench/hf_models.py's CONFIGS) on a CPU without memory: parameters and
inputs may be meta tensors.

Attention is one opaque op each way (`seam_bench::attention` and its backward), standing for the fused
SDPA kernels PyTorch runs on the GPU (torch 1.13 has no scaled_dot_product_attention, and writing it out
would put [b, h, T, T] score tensors into the traced graphs that the GPU graph never has). Its forward
saves the output and a f32 log-sum-exp [b, h, T], as the flash and cuDNN kernels do; K and V reach it
expanded to every query head (HF's repeat_kv), so the expansion's backward (a sum over the groups) is in
the graph as on the GPU. The loss is HF's ForCausalLMLoss: f32 logits, labels shifted left with -100
padding, mean cross-entropy over the tokens that are not ignored."""

import math

import torch
import torch.nn.functional as F
from torch import nn

_LIB = torch.library.Library("seam_bench", "DEF")
_LIB.define("attention(Tensor q, Tensor k, Tensor v) -> (Tensor, Tensor)")
_LIB.define("attention_backward(Tensor grad, Tensor q, Tensor k, Tensor v, Tensor out, Tensor lse)"
            " -> (Tensor, Tensor, Tensor)")


def _attention_meta(q, k, v):
    b, h, t, _ = q.shape
    return torch.empty_like(q), q.new_empty((b, h, t), dtype=torch.float32)


def _attention_backward_meta(grad, q, k, v, out, lse):
    return torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)


def _attention_cpu(q, k, v):
    """Causal softmax(q k^T / sqrt(d)) v and its log-sum-exp (for a run on small CPU tensors)."""
    t = q.shape[-2]
    scores = (q.float() @ k.float().transpose(-1, -2)) / math.sqrt(q.shape[-1])
    scores = scores.masked_fill(~torch.ones(t, t, dtype=torch.bool).tril(), float("-inf"))
    lse = scores.logsumexp(-1)
    return ((scores - lse[..., None]).exp() @ v.float()).to(q.dtype), lse


def _attention_backward_cpu(grad, q, k, v, out, lse):
    t = q.shape[-2]
    scale = 1.0 / math.sqrt(q.shape[-1])
    scores = (q.float() @ k.float().transpose(-1, -2)) * scale
    scores = scores.masked_fill(~torch.ones(t, t, dtype=torch.bool).tril(), float("-inf"))
    p = (scores - lse[..., None]).exp()
    g = grad.float()
    dv = p.transpose(-1, -2) @ g
    dp = g @ v.float().transpose(-1, -2)
    ds = p * (dp - (dp * p).sum(-1, keepdim=True)) * scale
    return (ds @ k.float()).to(q.dtype), (ds.transpose(-1, -2) @ q.float()).to(k.dtype), dv.to(v.dtype)


for _key, _fwd, _bwd in (("Meta", _attention_meta, _attention_backward_meta),
                         ("CPU", _attention_cpu, _attention_backward_cpu)):
    _LIB.impl("attention", _fwd, _key)
    _LIB.impl("attention_backward", _bwd, _key)
# On meta tensors torch 1.13 does not fall through the autograd key: its kernel passes the call on.
_LIB.impl("attention", lambda *a: below_autograd(torch.ops.seam_bench.attention.default, *a), "AutogradMeta")
_LIB.impl("attention_backward",
          lambda *a: below_autograd(torch.ops.seam_bench.attention_backward.default, *a), "AutogradMeta")


def below_autograd(op, *args):
    """Calls op past the autograd keys (the Function below is the attention ops' autograd)."""
    guard = torch._C._AutoDispatchBelowAutograd()  # an RAII guard in torch 1.13, not a context manager
    try:
        return op(*args)
    finally:
        del guard


class _Attention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v):
        out, lse = below_autograd(torch.ops.seam_bench.attention, q, k, v)
        ctx.save_for_backward(q, k, v, out, lse)
        return out

    @staticmethod
    def backward(ctx, grad):
        return below_autograd(torch.ops.seam_bench.attention_backward, grad, *ctx.saved_tensors)


def causal_attention(q, k, v):
    return _Attention.apply(q, k, v)


def causal_lm_loss(logits, labels):
    """HF's ForCausalLMLoss: f32 logits, labels shifted left (the last position ignored)."""
    labels = F.pad(labels, (0, 1), value=-100)[..., 1:].contiguous()
    logits = logits.float()
    return F.cross_entropy(logits.view(-1, logits.shape[-1]), labels.view(-1), ignore_index=-100)


# --- Llama and Qwen2 --------------------------------------------------------------------------------------
class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        x32 = x.float()
        x32 = x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * x32.to(x.dtype)


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def rope_tables(positions, head_dim, base, dtype):
    """HF's rotary embedding: f32 frequencies, cos and sin cast to the activations' dtype."""
    inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2, device=positions.device).float() / head_dim))
    freqs = positions.float()[:, None] * inv_freq[None, :]
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos().to(dtype), emb.sin().to(dtype)


class LlamaAttention(nn.Module):
    def __init__(self, dim, heads, kv_heads, bias):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = heads, kv_heads, dim // heads
        self.q_proj = nn.Linear(dim, heads * self.head_dim, bias=bias)
        self.k_proj = nn.Linear(dim, kv_heads * self.head_dim, bias=bias)
        self.v_proj = nn.Linear(dim, kv_heads * self.head_dim, bias=bias)
        self.o_proj = nn.Linear(heads * self.head_dim, dim, bias=False)

    def forward(self, x, cos, sin):
        b, t, _ = x.shape
        q = self.q_proj(x).view(b, t, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        groups = self.heads // self.kv_heads
        k = k[:, :, None].expand(b, self.kv_heads, groups, t, self.head_dim).reshape(b, self.heads, t, self.head_dim)
        v = v[:, :, None].expand(b, self.kv_heads, groups, t, self.head_dim).reshape(b, self.heads, t, self.head_dim)
        out = causal_attention(q, k, v)
        return self.o_proj(out.transpose(1, 2).reshape(b, t, -1))


class SwiGLU(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.gate_proj = nn.Linear(dim, hidden, bias=False)
        self.up_proj = nn.Linear(dim, hidden, bias=False)
        self.down_proj = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class LlamaBlock(nn.Module):
    def __init__(self, dim, heads, kv_heads, hidden, bias):
        super().__init__()
        self.input_layernorm = RMSNorm(dim)
        self.self_attn = LlamaAttention(dim, heads, kv_heads, bias)
        self.post_attention_layernorm = RMSNorm(dim)
        self.mlp = SwiGLU(dim, hidden)

    def forward(self, x, cos, sin):
        x = x + self.self_attn(self.input_layernorm(x), cos, sin)
        return x + self.mlp(self.post_attention_layernorm(x))


class LlamaForCausalLM(nn.Module):
    """Llama (qkv_bias=False) or Qwen2 (qkv_bias=True): the same decoder in HF."""

    def __init__(self, vocab, dim, heads, kv_heads, hidden, layers, rope_base=10000.0, qkv_bias=False):
        super().__init__()
        self.rope_base, self.head_dim = rope_base, dim // heads
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(LlamaBlock(dim, heads, kv_heads, hidden, qkv_bias) for _ in range(layers))
        self.norm = RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, labels):
        x = self.embed_tokens(input_ids)
        positions = torch.arange(input_ids.shape[1], device=input_ids.device)
        cos, sin = rope_tables(positions, self.head_dim, self.rope_base, x.dtype)
        for layer in self.layers:
            x = layer(x, cos, sin)
        logits = self.lm_head(self.norm(x))
        return causal_lm_loss(logits, labels)


# --- GPT-2 ------------------------------------------------------------------------------------------------
class GPT2Block(nn.Module):
    """HF's GPT2Block: pre-LayerNorm, Conv1D projections (addmm), fused qkv split in three, tanh GELU."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.ln_1, self.ln_2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.c_attn_weight = nn.Parameter(torch.empty(dim, 3 * dim))
        self.c_attn_bias = nn.Parameter(torch.empty(3 * dim))
        self.c_proj_weight = nn.Parameter(torch.empty(dim, dim))
        self.c_proj_bias = nn.Parameter(torch.empty(dim))
        self.c_fc_weight = nn.Parameter(torch.empty(dim, 4 * dim))
        self.c_fc_bias = nn.Parameter(torch.empty(4 * dim))
        self.mlp_proj_weight = nn.Parameter(torch.empty(4 * dim, dim))
        self.mlp_proj_bias = nn.Parameter(torch.empty(dim))

    @staticmethod
    def conv1d(x, weight, bias):
        return torch.addmm(bias, x.view(-1, x.shape[-1]), weight).view(*x.shape[:-1], weight.shape[1])

    def forward(self, x):
        b, t, d = x.shape
        qkv = self.conv1d(self.ln_1(x), self.c_attn_weight, self.c_attn_bias)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in qkv.split(d, dim=2))
        attn = causal_attention(q, k, v)
        x = x + self.conv1d(attn.transpose(1, 2).reshape(b, t, d), self.c_proj_weight, self.c_proj_bias)
        h = F.gelu(self.conv1d(self.ln_2(x), self.c_fc_weight, self.c_fc_bias), approximate="tanh")
        return x + self.conv1d(h, self.mlp_proj_weight, self.mlp_proj_bias)


class GPT2LMHeadModel(nn.Module):
    """HF's GPT2LMHeadModel: token and position embeddings, blocks, ln_f, lm_head tied to wte."""

    def __init__(self, vocab, dim, heads, layers, positions):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, dim), nn.Embedding(positions, dim)
        self.h = nn.ModuleList(GPT2Block(dim, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(dim)

    def forward(self, input_ids, labels):
        positions = torch.arange(input_ids.shape[1], device=input_ids.device)
        x = self.wte(input_ids) + self.wpe(positions)[None]
        for block in self.h:
            x = block(x)
        logits = F.linear(self.ln_f(x), self.wte.weight)
        return causal_lm_loss(logits, labels)


# name: (constructor, keyword arguments, batch, T), as bench/hf_models.py's CONFIGS
MODELS = {
    "llama": (LlamaForCausalLM, dict(vocab=32000, dim=2048, heads=16, kv_heads=4, hidden=5632, layers=4), 4, 2048),
    "qwen2": (LlamaForCausalLM, dict(vocab=151936, dim=1536, heads=12, kv_heads=2, hidden=8960, layers=2,
                                     qkv_bias=True), 2, 2048),
    "gpt2": (GPT2LMHeadModel, dict(vocab=50257, dim=1024, heads=16, layers=4, positions=2048), 4, 2048),
}
