#!/usr/bin/env python3
"""torch.matmul / torch.nn.functional.linear on the shapes of bench_matmul_gpu, timed the same way.

Run next to `bench_matmul_gpu` in one device call to compare seam's cuBLASLt plans with what PyTorch picks
(it calls cuBLAS/cuBLASLt too): bf16, the same shapes at --tokens T, 3 input sets rotated, GPU time = the
median over N calls of the summed kernel durations torch.profiler records (CUPTI, as bench_matmul_gpu's
"kernel us"), kernels per call, TFLOP/s.

Usage: python3 bench/matmul_vs_torch.py [--tokens 4096] [--iterations 20]
"""
import argparse
import statistics
import sys


def rows(t):
    linear = [("qkv", t, 4096, 12288), ("attn proj", t, 4096, 4096), ("mlp fc", t, 4096, 11008),
              ("mlp proj", t, 11008, 4096)]
    out = []
    for name, m, k, n in linear:
        out.append((f"{name} [{m},{k}] x [{n},{k}]^T", "linear", (m, k), (n, k), 2.0 * m * n * k))
    out.append((f"scores q @ k^T [32,{t},128] x [32,128,{t}]", "scores", (32, t, 128), (32, t, 128),
                2.0 * 32 * t * t * 128))
    out.append((f"context p @ v [32,{t},{t}] x [32,{t},128]", "matmul", (32, t, t), (32, t, 128),
                2.0 * 32 * t * t * 128))
    out.append(("decode qkv [16,4096] x [12288,4096]^T", "linear", (16, 4096), (12288, 4096),
                2.0 * 16 * 4096 * 12288))
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tokens", type=int, default=4096)
    p.add_argument("--iterations", type=int, default=20)
    args = p.parse_args()
    import torch
    from torch.profiler import ProfilerActivity, profile

    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, bf16, {args.tokens} tokens\n")
    print("| product | torch kernel us | kernels | TFLOP/s |\n|---|---|---|---|")
    for name, kind, sa, sb, flops in rows(args.tokens):
        sets = [(torch.randn(sa, device="cuda").to(torch.bfloat16), torch.randn(sb, device="cuda").to(torch.bfloat16))
                for _ in range(3)]
        if kind == "linear":
            fn = torch.nn.functional.linear
        elif kind == "scores":
            def fn(q, k):
                return torch.matmul(q, k.transpose(1, 2))
        else:
            fn = torch.matmul
        for i in range(5):
            fn(*sets[i % 3])
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for i in range(args.iterations):
                fn(*sets[i % 3])
            torch.cuda.synchronize()
        kernels = sorted((e for e in prof.events() if e.device_type.name == "CUDA"),
                         key=lambda e: e.time_range.start)
        per = max(1, len(kernels) // args.iterations)
        runs = [sum(e.time_range.elapsed_us() for e in kernels[i * per:(i + 1) * per])
                for i in range(args.iterations)]
        us = statistics.median(runs)
        print(f"| {name} | {us:.1f} | {per} | {flops / (us * 1e-6) / 1e12:.0f} |", flush=True)
        del sets
        torch.cuda.empty_cache()


if __name__ == "__main__":
    sys.exit(main())
