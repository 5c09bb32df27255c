"""The Thunder-style QKV split + RoPE forward (docs/WORKLOADS.md) as an nvFuser FusionDefinition, run on
seam and checked against PyTorch eager. On a GPU it runs on CUDA tensors; otherwise on seam's host backend.

    PYTHONPATH=python python3 python/examples/rope.py [--config W3] [--batch 2] [--seq 4096] [--cpu]
"""

import argparse
import time

import torch

from nvfuser import DataType, FusionDefinition

# (query heads, KV groups, head size, rotary elements) of litgpt configurations.
CONFIGS = {
    "small": (8, 2, 64, 32),     # a small GQA model with partial rotary, for the host backend
    "W1": (32, 32, 128, 128),    # Llama-2-7b-hf
    "W3": (32, 8, 128, 128),     # Llama-3-8B
    "W8": (32, 32, 96, 96),      # Phi-3.5-mini-instruct
}


def define_rope(fd, batch, seq, nh, ng, hs, n):
    """What Thunder hands nvFuser for litgpt's qkv split + apply_rope (forward)."""
    qpk = nh // ng
    kvh = nh if ng != nh else ng
    qkv = fd.define_tensor(shape=[batch, seq, (nh + 2 * ng) * hs], contiguity=[True, True, True],
                           dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    cos = fd.define_tensor(shape=[seq, n], contiguity=[True, True], dtype=DataType.BFloat16)
    sin = fd.define_tensor(shape=[seq, n], contiguity=[True, True], dtype=DataType.BFloat16)
    x = fd.ops.reshape(qkv, new_shape=[batch, seq, ng, qpk + 2, hs])
    x = fd.ops.permute(x, dims=[0, 2, 3, 1, 4])
    q = fd.ops.slice(x, [0, 0, 0, 0, 0], [batch, ng, qpk, seq, hs], [1, 1, 1, 1, 1])
    k = fd.ops.slice(x, [0, 0, qpk, 0, 0], [batch, ng, qpk + 1, seq, hs], [1, 1, 1, 1, 1])
    v = fd.ops.slice(x, [0, 0, qpk + 1, 0, 0], [batch, ng, qpk + 2, seq, hs], [1, 1, 1, 1, 1])
    if ng != nh:
        k = fd.ops.broadcast_in_dim(k, shape=[batch, ng, qpk, seq, hs], broadcast_dims=[0, 1, 2, 3, 4])
        v = fd.ops.broadcast_in_dim(v, shape=[batch, ng, qpk, seq, hs], broadcast_dims=[0, 1, 2, 3, 4])
    q = fd.ops.reshape(q, new_shape=[batch, nh, seq, hs])
    k = fd.ops.reshape(k, new_shape=[batch, kvh, seq, hs])
    v = fd.ops.reshape(v, new_shape=[batch, kvh, seq, hs])

    def rope(y, heads):
        yr = fd.ops.slice(y, [0, 0, 0, 0], [batch, heads, seq, n]) if n < hs else y
        y1 = fd.ops.slice(yr, [0, 0, 0, 0], [batch, heads, seq, n // 2])
        y2 = fd.ops.slice(yr, [0, 0, 0, n // 2], [batch, heads, seq, n])
        rotated = fd.ops.cat([fd.ops.neg(fd.ops.cast(y2, DataType.Float)), fd.ops.cast(y1, DataType.Float)], dim=-1)
        c = fd.ops.cast(fd.ops.broadcast_in_dim(cos, shape=[batch, heads, seq, n], broadcast_dims=[2, 3]),
                        DataType.Float)
        s = fd.ops.cast(fd.ops.broadcast_in_dim(sin, shape=[batch, heads, seq, n], broadcast_dims=[2, 3]),
                        DataType.Float)
        r = fd.ops.add(fd.ops.mul(fd.ops.cast(yr, DataType.Float), c), fd.ops.mul(rotated, s))
        r = fd.ops.cast(r, DataType.BFloat16)
        if n < hs:
            r = fd.ops.cat([r, fd.ops.slice(y, [0, 0, 0, n], [batch, heads, seq, hs])], dim=-1)
        return r

    fd.add_output(rope(q, nh))
    fd.add_output(rope(k, kvh))
    fd.add_output(v)


def torch_rope(qkv, cos, sin, nh, ng, hs, n):
    """litgpt's CausalSelfAttention qkv split + apply_rope in PyTorch eager, math in float32."""
    batch, seq, _ = qkv.shape
    qpk = nh // ng
    x = qkv.view(batch, seq, ng, qpk + 2, hs).permute(0, 2, 3, 1, 4)
    q, k, v = x.split((qpk, 1, 1), dim=2)
    if ng != nh:
        k = k.expand(batch, ng, qpk, seq, hs)
        v = v.expand(batch, ng, qpk, seq, hs)
    q, k, v = (t.reshape(batch, -1, seq, hs) for t in (q, k, v))

    def apply_rope(y):
        yr = y[..., :n].float()
        rotated = torch.cat((-yr[..., n // 2:], yr[..., :n // 2]), dim=-1)
        r = (yr * cos.float() + rotated * sin.float()).to(y.dtype)
        return torch.cat((r, y[..., n:]), dim=-1) if n < hs else r

    return [apply_rope(q), apply_rope(k), v]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", choices=sorted(CONFIGS), default=None)
    parser.add_argument("--batch", type=int, default=None)
    parser.add_argument("--seq", type=int, default=None)
    parser.add_argument("--cpu", action="store_true", help="run on CPU tensors even when there is a GPU")
    args = parser.parse_args()
    import seam

    on_gpu = not args.cpu and torch.cuda.is_available() and seam.cuda_available()
    device = "cuda" if on_gpu else "cpu"
    config = args.config or ("W3" if on_gpu else "small")
    batch = args.batch or (2 if on_gpu else 1)
    seq = args.seq or (4096 if on_gpu else 64)
    nh, ng, hs, n = CONFIGS[config]

    with FusionDefinition() as fd:
        define_rope(fd, batch, seq, nh, ng, hs, n)

    g = torch.Generator().manual_seed(0)
    qkv = torch.randn(batch, seq, (nh + 2 * ng) * hs, generator=g).bfloat16().to(device)
    cos = torch.randn(seq, n, generator=g).bfloat16().to(device)
    sin = torch.randn(seq, n, generator=g).bfloat16().to(device)

    start = time.perf_counter()
    outputs = fd.execute([qkv, cos, sin])
    if on_gpu:
        torch.cuda.synchronize()
    cold = time.perf_counter() - start
    print(f"RoPE forward, config {config} (nh={nh}, ng={ng}, hs={hs}, n={n}), batch {batch}, seq {seq}, "
          f"on {device} ({'CUDA backend' if on_gpu else 'host backend'})")
    print(fd.last_segmentation().rstrip())
    print(f"first execute (specialize + compile + run): {cold * 1e3:.1f} ms")

    expected = torch_rope(qkv, cos, sin, nh, ng, hs, n)
    worst = 0.0
    for name, out, ref in zip("qkv", outputs, expected):
        assert out.shape == ref.shape and out.dtype == ref.dtype, (name, out.shape, ref.shape, out.dtype)
        diff = (out.float() - ref.float()).abs().max().item() if out.numel() else 0.0
        worst = max(worst, diff)
        torch.testing.assert_close(out, ref, rtol=1.6e-2, atol=1e-5)
        print(f"  {name}: {list(out.shape)} {out.dtype}, max |seam - torch eager| = {diff:.3g}")
    if on_gpu:
        for _ in range(3):
            fd.execute([qkv, cos, sin])
        torch.cuda.synchronize()
        iterations = 50
        start = time.perf_counter()
        for _ in range(iterations):
            fd.execute([qkv, cos, sin])
        torch.cuda.synchronize()
        print(f"cached execute: {(time.perf_counter() - start) / iterations * 1e6:.1f} us per call (wall, "
              f"including the kernel)")
    print("matches PyTorch eager")


if __name__ == "__main__":
    main()
