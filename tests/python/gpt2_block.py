"""A small GPT-2 in plain PyTorch: token and position embeddings, pre-LayerNorm blocks with a fused QKV
projection as addmm (HF's Conv1D) split in three, causal attention written out (matmul, mask, softmax),
a tanh-GELU MLP, dropout (p=0: the same function in every mode) and cross-entropy."""

import math

import torch
import torch.nn.functional as F
from torch import nn


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.ln_1, self.ln_2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.c_attn_weight = nn.Parameter(torch.randn(dim, 3 * dim) * 0.05)
        self.c_attn_bias = nn.Parameter(torch.randn(3 * dim) * 0.05)
        self.c_proj = nn.Linear(dim, dim)
        self.c_fc, self.mlp_proj = nn.Linear(dim, 4 * dim), nn.Linear(4 * dim, dim)
        self.dropout = nn.Dropout(0.0)

    def forward(self, x):
        b, t, d = x.shape
        qkv = torch.addmm(self.c_attn_bias, self.ln_1(x).view(-1, d), self.c_attn_weight).view(b, t, 3 * d)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in qkv.split(d, dim=2))
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(d // self.heads)
        causal = torch.ones(t, t, dtype=torch.bool, device=x.device).tril()
        scores = torch.where(causal, scores, torch.tensor(-1e4, dtype=scores.dtype, device=x.device))
        attn = self.dropout(scores.softmax(-1)) @ v
        x = x + self.dropout(self.c_proj(attn.transpose(1, 2).reshape(b, t, d)))
        return x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh"))


class TinyGPT2(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, layers=2, positions=16):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, dim), nn.Embedding(positions, dim)
        self.blocks = nn.ModuleList(Block(dim, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, tokens):
        x = self.wte(tokens) + self.wpe(torch.arange(tokens.shape[1], device=tokens.device))
        for block in self.blocks:
            x = block(x)
        logits = self.lm_head(self.ln_f(x))
        return logits, F.cross_entropy(logits.view(-1, logits.shape[-1]).float(), tokens.view(-1))
