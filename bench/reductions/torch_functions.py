"""The reduction benchmark's functions in PyTorch: one definition per kind of bench/reductions/fusions.py,
with the same math (bf16 in and out, f32 compute) and the same input and output names and order.

`FUNCTIONS[kind](*inputs)` returns the outputs as a tuple, in the fusion's return order; eager and
torch.compile run that one definition. `make_inputs(kind, m, n, seed)` returns the inputs as a dict
by the fusion's input names, in its input order, on the GPU. Only reductions_vs_torch.py imports this (it
needs torch); the fusion files never do.
"""
import torch
import torch.nn.functional as F

RMSNORM_EPS = 1e-6  # as fusions.py
LAYERNORM_EPS = 1e-5
IGNORE_INDEX = -100


def rmsnorm_fwd(x, w):
    # Upcast, rsqrt(mean(x^2) + eps), times the weight in f32, rounded once (F.rms_norm's own math).
    return (F.rms_norm(x.float(), (x.shape[-1],), w.float(), RMSNORM_EPS).to(x.dtype),)


def add_rmsnorm_fwd(x, r, w):
    h = x + r  # a bf16 add: the f32 sum rounded once
    return h, rmsnorm_fwd(h, w)[0]


def layernorm_fwd(x, w, b):
    return (F.layer_norm(x.float(), (x.shape[-1],), w.float(), b.float(), LAYERNORM_EPS).to(x.dtype),)


def softmax_fwd(x):
    return (torch.softmax(x.float(), dim=-1).to(x.dtype),)


def log_softmax_fwd(x):
    return (torch.log_softmax(x.float(), dim=-1).to(x.dtype),)


def softmax_bwd(y, dy):
    yf, dyf = y.float(), dy.float()
    return ((yf * (dyf - (yf * dyf).sum(-1, keepdim=True))).to(y.dtype),)


def rmsnorm_bwd(x, w, dy, rstd):
    xf, dyf = x.float(), dy.float()
    xhat = xf * rstd
    g = dyf * w.float()
    dx = rstd * (g - xhat * (g * xhat).mean(-1, keepdim=True))
    dw = (dyf * xhat).sum(0)
    return dx.to(x.dtype), dw.to(w.dtype)


def layernorm_bwd(x, w, dy, mean, rstd):
    xf, dyf = x.float(), dy.float()
    xhat = (xf - mean) * rstd
    g = dyf * w.float()
    dx = rstd * (g - g.mean(-1, keepdim=True) - xhat * (g * xhat).mean(-1, keepdim=True))
    return dx.to(x.dtype), (dyf * xhat).sum(0).to(w.dtype), dyf.sum(0).to(w.dtype)


def cross_entropy_fwd(logits, targets):
    # Per-row loss in f32: logsumexp(x) - x[target].
    return (F.cross_entropy(logits.float(), targets, reduction="none"),)


def _cross_entropy_grad(logits, targets, dloss, p):
    # dloss * (softmax - onehot(target)), 0 for ignored rows: the gradient of reduction="none" with the
    # upstream gradient dloss per row (reduction="mean" is dloss = g / number of rows not ignored).
    cols = torch.arange(logits.shape[-1], device=logits.device)
    onehot = (cols[None, :] == targets[:, None]).float()
    scale = torch.where(targets != IGNORE_INDEX, dloss, 0.0)
    return ((p - onehot) * scale[:, None]).to(logits.dtype)


def cross_entropy_bwd(logits, targets, dloss):
    return (_cross_entropy_grad(logits, targets, dloss, torch.softmax(logits.float(), dim=-1)),)


def cross_entropy_fwd_bwd(logits, targets, dloss):
    xf = logits.float()
    lse = torch.logsumexp(xf, dim=-1)
    loss = F.cross_entropy(xf, targets, reduction="none", ignore_index=IGNORE_INDEX)
    return loss, _cross_entropy_grad(logits, targets, dloss, torch.exp(xf - lse[:, None]))


def swiglu_fwd(g, u):
    return ((F.silu(g.float()) * u.float()).to(g.dtype),)


FUNCTIONS = {
    "rmsnorm_fwd": rmsnorm_fwd,
    "add_rmsnorm_fwd": add_rmsnorm_fwd,
    "layernorm_fwd": layernorm_fwd,
    "softmax_fwd": softmax_fwd,
    "log_softmax_fwd": log_softmax_fwd,
    "softmax_bwd": softmax_bwd,
    "rmsnorm_bwd": rmsnorm_bwd,
    "layernorm_bwd": layernorm_bwd,
    "cross_entropy_fwd": cross_entropy_fwd,
    "cross_entropy_bwd": cross_entropy_bwd,
    "cross_entropy_fwd_bwd": cross_entropy_fwd_bwd,
    "swiglu_fwd": swiglu_fwd,
}


def make_inputs(kind, m, n, seed):
    """Seeded inputs of `kind` at M x N on the GPU, by the fusion's input names and in its order."""
    gen = torch.Generator(device="cuda").manual_seed(seed)
    bf16 = torch.bfloat16

    def randn(*shape, scale=1.0, shift=0.0):
        return (torch.randn(*shape, device="cuda", generator=gen) * scale + shift).to(bf16)

    def stats(x):
        xf = x.float()
        mean = xf.mean(-1, keepdim=True)
        return mean, torch.rsqrt(xf.var(-1, unbiased=False, keepdim=True) + LAYERNORM_EPS)

    weight = randn(n, scale=0.1, shift=1.0)
    if kind == "rmsnorm_fwd":
        return {"x": randn(m, n), "w": weight}
    if kind == "add_rmsnorm_fwd":
        return {"x": randn(m, n), "r": randn(m, n), "w": weight}
    if kind == "layernorm_fwd":
        return {"x": randn(m, n), "w": weight, "b": randn(n, scale=0.1)}
    if kind in ("softmax_fwd", "log_softmax_fwd"):
        return {"x": randn(m, n)}
    if kind == "softmax_bwd":
        return {"y": torch.softmax(randn(m, n).float(), -1).to(bf16), "dy": randn(m, n)}
    if kind == "rmsnorm_bwd":
        x = randn(m, n)
        rstd = torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + RMSNORM_EPS)
        return {"x": x, "w": weight, "dy": randn(m, n), "rstd": rstd}
    if kind == "layernorm_bwd":
        x = randn(m, n)
        mean, rstd = stats(x)
        return {"x": x, "w": weight, "dy": randn(m, n), "mean": mean, "rstd": rstd}
    if kind == "cross_entropy_fwd":
        targets = torch.randint(0, n, (m,), device="cuda", generator=gen, dtype=torch.int64)
        return {"logits": randn(m, n, scale=2.0), "targets": targets}
    if kind in ("cross_entropy_bwd", "cross_entropy_fwd_bwd"):
        # One row in 8 ignored; the mean over the others: dloss = 1 / (rows not ignored) per row.
        targets = torch.randint(0, n, (m,), device="cuda", generator=gen, dtype=torch.int64)
        targets[torch.rand(m, device="cuda", generator=gen) < 0.125] = IGNORE_INDEX
        valid = int((targets != IGNORE_INDEX).sum().item())
        dloss = torch.full((m,), 1.0 / max(valid, 1), device="cuda", dtype=torch.float32)
        return {"logits": randn(m, n, scale=2.0), "targets": targets, "dloss": dloss}
    if kind == "swiglu_fwd":
        return {"g": randn(m, n), "u": randn(m, n)}
    raise ValueError(f"unknown kind {kind!r}")
