"""seam's main job: a small Llama-style model's training step (forward, cross-entropy loss, backward,
SGD update) through seam's torch backend, next to PyTorch eager. On a GPU it runs on CUDA tensors; without
one on seam's host backend (the same kernels compiled for the CPU). It prints the loss and gradients of
both (they must match), the regions seam took from the forward and backward graphs and the kernels it
made for them, and each one's step time.

    PYTHONPATH=python python3 python/examples/llama_train_step.py [--layers 2] [--dim 64] [--seq 32] [--cpu]

torch.compile(model, backend="seam") where torch has Dynamo (2.x); on torch 1.13 (Debian's), which has
none, seam.torch_backend.aot_compile(model), the same regions through functorch's AOT autograd.
"""

import argparse
import copy
import math
import sys
import time

import torch
import torch.nn.functional as F
from torch import nn

import seam
import seam.torch_backend as tb


# --- the model: token embedding, decoder blocks (RMSNorm, rotary embedding, grouped-query attention,
# SwiGLU), a final RMSNorm and the vocabulary projection --------------------------------------------------

class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        x32 = x.float()
        return self.weight * (x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)).to(x.dtype)


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class Attention(nn.Module):
    def __init__(self, dim, heads, kv_heads):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = heads, kv_heads, dim // heads
        self.q_proj = nn.Linear(dim, dim, bias=False)
        self.k_proj = nn.Linear(dim, kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(dim, kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(dim, dim, bias=False)

    def forward(self, x, cos, sin):
        b, t, _ = x.shape
        q = self.q_proj(x).view(b, t, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        groups = self.heads // self.kv_heads
        k = k[:, :, None].expand(b, self.kv_heads, groups, t, self.head_dim).reshape(b, self.heads, t, -1)
        v = v[:, :, None].expand(b, self.kv_heads, groups, t, self.head_dim).reshape(b, self.heads, t, -1)
        if hasattr(F, "scaled_dot_product_attention"):
            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:  # torch 1.13: the same math
            scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)
            mask = torch.ones(t, t, dtype=torch.bool, device=x.device).tril()
            out = torch.matmul(torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1), v)
        return self.o_proj(out.transpose(1, 2).reshape(b, t, -1))


class Block(nn.Module):
    def __init__(self, dim, heads, kv_heads, hidden):
        super().__init__()
        self.attn_norm, self.mlp_norm = RMSNorm(dim), RMSNorm(dim)
        self.attn = Attention(dim, heads, kv_heads)
        self.gate_proj = nn.Linear(dim, hidden, bias=False)
        self.up_proj = nn.Linear(dim, hidden, bias=False)
        self.down_proj = nn.Linear(hidden, dim, bias=False)

    def forward(self, x, cos, sin):
        x = x + self.attn(self.attn_norm(x), cos, sin)
        h = self.mlp_norm(x)
        return x + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))


class TinyLlama(nn.Module):
    def __init__(self, vocab, dim, heads, kv_heads, hidden, layers):
        super().__init__()
        self.head_dim = dim // heads
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(Block(dim, heads, kv_heads, hidden) for _ in range(layers))
        self.norm = RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, tokens, labels):
        x = self.embed(tokens)
        t = tokens.shape[1]
        inv_freq = 1.0 / (10000.0 ** (torch.arange(0, self.head_dim, 2, device=x.device).float() / self.head_dim))
        freqs = torch.outer(torch.arange(t, device=x.device).float(), inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos().to(x.dtype), emb.sin().to(x.dtype)
        for block in self.blocks:
            x = block(x, cos, sin)
        logits = self.lm_head(self.norm(x))
        return F.cross_entropy(logits.view(-1, logits.shape[-1]).float(), labels.view(-1))


# --- the step, eager and through seam --------------------------------------------------------------------

def has_dynamo():
    try:
        import torch._dynamo  # noqa: F401
    except ImportError:
        return False
    return hasattr(torch, "compile")


def train_step(forward, model, optimizer, tokens, labels, device):
    optimizer.zero_grad(set_to_none=True)
    loss = forward(tokens, labels)
    loss.backward()
    grads = {name: p.grad.detach().clone() for name, p in model.named_parameters()}
    optimizer.step()
    if device == "cuda":
        torch.cuda.synchronize()
    return loss.detach(), grads


def timed_steps(forward, model, optimizer, tokens, labels, device, steps):
    start = time.perf_counter()
    for _ in range(steps):
        train_step(forward, model, optimizer, tokens, labels, device)
    return (time.perf_counter() - start) / steps * 1e3


def seam_kernels():
    """Per distinct seam definition compiled in this process (every layer's identical regions share
    one): the kernels its compiled executable launches per run."""
    kernels = []
    cache = seam.FusionCache.get()
    for entry in sorted(cache._entries.values(), key=lambda e: e.id):
        for spec in entry.specializations.values():
            exe = spec.executable_or_none()
            kernels.append(exe.num_kernels() if exe is not None else 0)
    return kernels


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--dim", type=int, default=64)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--kv-heads", type=int, default=2)
    parser.add_argument("--vocab", type=int, default=256)
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--seq", type=int, default=32)
    parser.add_argument("--steps", type=int, default=5, help="timed steps after the first (compiling) one")
    parser.add_argument("--cpu", action="store_true", help="the host backend even where there is a GPU")
    args = parser.parse_args()

    device = "cuda" if not args.cpu and torch.cuda.is_available() and seam.cuda_available() else "cpu"
    torch.manual_seed(0)
    eager_model = TinyLlama(args.vocab, args.dim, args.heads, args.kv_heads, 3 * args.dim, args.layers).to(device)
    seam_model = copy.deepcopy(eager_model)
    tokens = torch.randint(0, args.vocab, (args.batch, args.seq), device=device)
    labels = torch.randint(0, args.vocab, (args.batch, args.seq), device=device)
    eager_opt = torch.optim.SGD(eager_model.parameters(), lr=0.1)
    seam_opt = torch.optim.SGD(seam_model.parameters(), lr=0.1)

    backend = "seam's host backend (CPU)" if device == "cpu" else f"seam's CUDA backend ({torch.cuda.get_device_name()})"
    params = sum(p.numel() for p in eager_model.parameters())
    print(f"Llama-style model: {args.layers} layers, dim {args.dim}, {args.heads} heads ({args.kv_heads} KV), "
          f"vocabulary {args.vocab}, {params} parameters; batch {args.batch} x {args.seq} tokens; fp32")
    if has_dynamo():
        how = 'torch.compile(model, backend="seam")'
        compiled = torch.compile(seam_model, backend="seam")
    else:
        how = "seam.torch_backend.aot_compile(model) (this torch has no Dynamo)"
        compiled = tb.aot_compile(seam_model)
    print(f"torch {torch.__version__}; {how}, on {backend}\n")

    # The first step: eager's, then seam's (which partitions the graphs and compiles its kernels).
    eager_loss, eager_grads = train_step(eager_model, eager_model, eager_opt, tokens, labels, device)
    reports = len(tb.REPORTS)
    start = time.perf_counter()
    seam_loss, seam_grads = train_step(compiled, seam_model, seam_opt, tokens, labels, device)
    first_step_s = time.perf_counter() - start

    worst_name, worst = max(((n, ((seam_grads[n] - g).abs().max() / g.abs().max().clamp_min(1e-12)).item())
                             for n, g in eager_grads.items()), key=lambda item: item[1])
    loss_ok = torch.allclose(seam_loss, eager_loss, rtol=1e-4, atol=1e-5)
    grads_ok = all(torch.allclose(seam_grads[n], g, rtol=1e-3, atol=1e-5) for n, g in eager_grads.items())
    print(f"loss      eager {eager_loss.item():.6f}   seam {seam_loss.item():.6f}   "
          f"{'match' if loss_ok else 'DIFFER'}")
    print(f"gradients {len(eager_grads)} tensors, largest difference relative to the tensor's largest "
          f"element {worst:.2e} ({worst_name}): {'match' if grads_ok else 'DIFFER'}\n")

    graphs = list(tb.REPORTS)[reports:]
    for name, report in zip(["forward", "backward"], graphs):
        nodes = sum(map(len, report.regions))
        left = sorted({n.rstrip("0123456789").rstrip("_") for n in report.pytorch_nodes})
        regions = f"{len(report.regions)} seam region" + ("" if len(report.regions) == 1 else "s")
        print(f"{name:8} graph: {regions} ({nodes} aten ops); left to PyTorch: "
              f"{', '.join(left) if left else 'nothing'}")
    kernels = seam_kernels()
    print(f"seam compiled {len(kernels)} distinct definitions (identical layers share one): "
          f"{sum(kernels)} kernels in all, per definition {kernels}")
    print(f"first step through seam (partitioning, compiling, running): {first_step_s:.1f} s\n")

    eager_ms = timed_steps(eager_model, eager_model, eager_opt, tokens, labels, device, args.steps)
    seam_ms = timed_steps(compiled, seam_model, seam_opt, tokens, labels, device, args.steps)
    print(f"step time (mean of {args.steps}): eager {eager_ms:.2f} ms, seam {seam_ms:.2f} ms")
    if device == "cpu":
        print("(the host backend runs seam's GPU kernels on one CPU thread, to check them without a GPU: it is "
              "not meant to be fast)")
    return 0 if loss_ok and grads_ok else 1


if __name__ == "__main__":
    sys.exit(main())
