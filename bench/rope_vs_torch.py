#!/usr/bin/env python3
"""seam next to PyTorch eager and torch.compile on the RoPE workloads, in one run on the GPU machine.

For every row: inputs are made here (torch, seeded) and written as .npy; `bench_rope_gpu` compiles the
same fusion twice in new processes (an empty binary cache: cold; then the cache it wrote: warm), times
seam's kernels with the first input set plus two of its own, and writes seam's outputs for set 0; then
eager and torch.compile run the identical function (WORKLOADS.md) on the same inputs, timed the same way:
GPU time = median over N calls of the summed kernel durations (torch.profiler), wall = median per call of
the call plus a synchronize (host clock), call = median per call of the CUDA events recorded right before and
after the call (BASELINES.md's wall method), kernels per call from the profiler. seam's GPU time is given both ways: by
events around its launches ("seam us") and, by the same method as torch's, as the summed kernel durations
CUPTI records ("seam kernel us"; "-" when CUPTI could not be loaded). The max |seam - eager| is reported per
row. Prints one markdown table (and --json-out writes the raw rows).

Usage: python3 bench/rope_vs_torch.py [--bin gpu-bin/bench_rope_gpu] [--rows forward|backward|t-sweep|quick]
       [--bs B] [--only W8,W9] [--contract thunder|rope-only]
       [--flush-l2] [--iterations N] [--no-compile] [--json-out FILE]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

from torch_helpers import copy_rate, to_npy  # bench/, the script's folder

CONFIGS = {  # id: (litgpt name, nh, ng, hs, n, block_size)
    "W1": ("Llama-2-7b-hf", 32, 32, 128, 128, 4096),
    "W2": ("Llama-2-13b-hf", 40, 40, 128, 128, 4096),
    "W3": ("Llama-3-8B", 32, 8, 128, 128, 8192),
    "W4": ("Mistral-7B-v0.1", 32, 8, 128, 128, 4096),
    "W5": ("Llama-2-70b-hf", 64, 8, 128, 128, 4096),
    "W6": ("Llama-3-70B", 64, 8, 128, 128, 8192),
    "W7": ("phi-2", 32, 32, 80, 32, 2048),
    "W8": ("Phi-3.5-mini-instruct", 32, 32, 96, 96, 4096),
    "W9": ("gemma-2-9b", 16, 8, 256, 256, 8192),
}


def rows_for(kind):
    rows = []
    if kind == "quick":
        return [("W2", "thunder", "forward", 2, 4096)]
    if kind == "t-sweep":
        for wid in ("W2", "W3"):
            t = 1024
            while t <= 32768:
                rows.append((wid, "thunder", "forward", 2, t))
                t *= 2
        return rows
    if kind == "forward":
        for contract in ("rope-only", "thunder"):
            for wid in CONFIGS:
                for bs in (1, 2):
                    rows.append((wid, contract, "forward", bs, CONFIGS[wid][5]))
        return rows
    if kind == "backward":
        for contract in ("rope-only", "thunder"):
            for wid in ("W1", "W2", "W3", "W4", "W5", "W6", "W7"):
                rows.append((wid, contract, "backward", 2, CONFIGS[wid][5]))
        return rows
    raise SystemExit(f"unknown --rows {kind}")


def rope_forward(torch, qkv, cos, sin, nh, ng, hs, n, contract):
    """litgpt 0.5.0's qkv split + RoPE (WORKLOADS.md); rope-only keeps k at ng heads and v a view."""
    B, T, _ = qkv.shape
    qpk = nh // ng
    x = qkv.view(B, T, ng, qpk + 2, hs).permute(0, 2, 3, 1, 4)
    q, k, v = x.split((qpk, 1, 1), dim=2)
    if contract == "thunder" and ng != nh:
        k = k.expand(B, ng, qpk, T, hs)
        v = v.expand(B, ng, qpk, T, hs)
    q = q.reshape(B, -1, T, hs)
    k = k.reshape(B, -1, T, hs)
    v = v.reshape(B, -1, T, hs)

    def rope(y):
        half = y.size(-1) // 2
        rotated = torch.cat((-y[..., half:], y[..., :half]), dim=-1)
        return ((y * cos) + (rotated * sin)).to(dtype=y.dtype)

    q = torch.cat((rope(q[..., :n]), q[..., n:]), dim=-1)
    k = torch.cat((rope(k[..., :n]), k[..., n:]), dim=-1)
    return q, k, v


def from_npy(torch, path, like_bf16=True):
    a = np.load(path)
    t = torch.from_numpy(a)
    if like_bf16 and a.dtype == np.uint16:
        t = t.view(torch.bfloat16)
    return t


def time_torch(torch, calls, iterations, flush):
    """(GPU us per call from the profiler's kernel sums, kernels per call, wall us per call, call us by
    events); `calls` are zero-argument callables, one per input set, rotated."""
    from torch.profiler import ProfilerActivity, profile

    # The flush writes random numbers (a kernel no RoPE function launches, so it can be told apart).
    scratch = torch.empty(64 << 20, dtype=torch.float32, device="cuda") if flush else None
    for i in range(5):
        calls[i % len(calls)]()
    torch.cuda.synchronize()
    wall = []
    for i in range(iterations):
        if flush:
            scratch.uniform_()
            torch.cuda.synchronize()
        t0 = time.perf_counter()
        calls[i % len(calls)]()
        torch.cuda.synchronize()
        wall.append((time.perf_counter() - t0) * 1e6)
    before, after = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    call = []
    for i in range(iterations):
        if flush:
            scratch.uniform_()
            torch.cuda.synchronize()
        before.record()
        calls[i % len(calls)]()
        after.record()
        after.synchronize()
        call.append(before.elapsed_time(after) * 1e3)
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for i in range(iterations):
            if flush:
                scratch.uniform_()
            calls[i % len(calls)]()
        torch.cuda.synchronize()
    kernels = [e for e in prof.events() if e.device_type.name == "CUDA"
               and not (flush and "distribution" in e.name.lower())]
    kernels.sort(key=lambda e: e.time_range.start)
    per = max(1, len(kernels) // iterations)  # every call launches the same kernels
    per_call = [sum(e.time_range.elapsed_us() for e in kernels[i * per:(i + 1) * per]) for i in range(iterations)]
    return statistics.median(per_call), per, statistics.median(wall), statistics.median(call)


def backward_calls(torch, fn, sets, qkv_shape):
    """One backward per input set: the forward graph built once, then only autograd.grad is called."""
    calls = []
    for grad_q, grad_k, grad_v, cos, sin in sets:
        qkv = torch.zeros(qkv_shape, device="cuda", dtype=torch.bfloat16, requires_grad=True)
        outs = fn(qkv, cos, sin)
        calls.append(lambda outs=outs, qkv=qkv, g=(grad_q, grad_k, grad_v):
                     torch.autograd.grad(outs, qkv, g, retain_graph=True))
    return calls


def selected_rows(args):
    """The rows of --rows that --bs, --only and --contract keep."""
    for wid, contract, direction, bs, T in rows_for(args.rows):
        if args.bs and bs != args.bs:
            continue
        if (args.only and wid not in args.only.split(",")) or (args.contract and contract != args.contract):
            continue
        yield wid, contract, direction, bs, T


def run_ncu_target(torch, args):
    """torch.compile's forward kernels of the selected rows: compiled and warmed up, then 3 calls."""
    for wid, contract, direction, bs, T in selected_rows(args):
        if direction != "forward":
            continue
        _, nh, ng, hs, n, _ = CONFIGS[wid]
        qkv = torch.randn(bs, T, (nh + 2 * ng) * hs, device="cuda").to(torch.bfloat16)
        cos = (torch.rand(T, n, device="cuda") * 2 - 1).to(torch.bfloat16)
        sin = (torch.rand(T, n, device="cuda") * 2 - 1).to(torch.bfloat16)
        compiled = torch.compile(lambda a, c, s: rope_forward(torch, a, c, s, nh, ng, hs, n, contract),
                                 dynamic=False)
        for _ in range(3):  # compiles, then warms up
            compiled(qkv, cos, sin)
        torch.cuda.synchronize()
        # The profiled calls: scripts/gpu_profile.sh --vs-torch keeps only kernels inside this NVTX range.
        torch.cuda.nvtx.range_push("ncu_target")
        for _ in range(3):
            compiled(qkv, cos, sin)
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
        print(f"{wid} {contract} bs {bs}: compiled, warmed up and called 3 times", flush=True)
        torch._dynamo.reset()
    return 0


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", default="gpu-bin/bench_rope_gpu")
    p.add_argument("--rows", default="forward", choices=["forward", "backward", "t-sweep", "quick"])
    p.add_argument("--flush-l2", action="store_true")
    p.add_argument("--iterations", type=int, default=30)
    p.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    p.add_argument("--json-out")
    p.add_argument("--bs", type=int, help="only rows of this batch size")
    p.add_argument("--only", help="only these workloads, comma-separated (W8,W9)")
    p.add_argument("--contract", choices=["thunder", "rope-only"], help="only rows of this contract")
    p.add_argument("--ncu-target", action="store_true",
                   help="only run torch.compile's forward of the selected rows: 3 calls after compiling, for "
                        "Nsight Compute to profile (scripts/gpu_profile.sh ... torch)")
    return p.parse_args()


def print_table_header():
    header = ("| workload | contract | dir | bs | T | floor us | seam kernels | seam us | seam % | seam kernel us "
              "| seam kernel % | seam wall us | seam call us "
              "| cold ms | warm ms | eager kernels | eager us | eager wall us | compile kernels | compile us "
              "| compile % | compile wall us | compile call us | compile cold s | max abs diff |")
    print(header)
    print("|" + "---|" * (header.count("|") - 1))


def make_input_set(torch, seed, direction, bs, T, wid, contract):
    """One seeded input set of a row, by the names the fusion's inputs have."""
    _, nh, ng, hs, n, _ = CONFIGS[wid]
    width = (nh + 2 * ng) * hs
    kvh = nh if (contract == "thunder" and ng != nh) else ng
    g = torch.Generator(device="cuda").manual_seed(seed)
    cos = (torch.rand(T, n, device="cuda", generator=g) * 2 - 1).to(torch.bfloat16)
    sin = (torch.rand(T, n, device="cuda", generator=g) * 2 - 1).to(torch.bfloat16)
    if direction == "forward":
        qkv = torch.randn(bs, T, width, device="cuda", generator=g).to(torch.bfloat16)
        return {"qkv": qkv, "cos": cos, "sin": sin}
    gq = torch.randn(bs, nh, T, hs, device="cuda", generator=g).to(torch.bfloat16)
    gk = torch.randn(bs, kvh, T, hs, device="cuda", generator=g).to(torch.bfloat16)
    gv = torch.randn(bs, kvh, T, hs, device="cuda", generator=g).to(torch.bfloat16)
    return {"grad_q": gq, "grad_k": gk, "grad_v": gv, "cos": cos, "sin": sin}


def run_seam(args, row_key, rate, in_dir, out_dir, cache):
    """bench_rope_gpu on a row in new processes: a cold compile (an empty binary cache), then the timed run
    that writes seam's outputs. Returns the cold run's JSON, a flag when it hit the cache, the timed run's JSON."""
    wid, contract, direction, bs, T = row_key
    common = [args.bin, "--only", wid, "--contract", contract, "--direction", direction, "--bs", str(bs),
              "--seq", str(T), "--json", "--copy-rate", f"{rate / 1e12:.6f}", "--inputs", in_dir]
    env = dict(os.environ, SEAM_CACHE_DIR=cache)
    cold = json.loads(subprocess.run(common + ["--compile-only"], env=env, check=True, capture_output=True,
                                     text=True).stdout.strip().splitlines()[-1])
    # A cold compile must have compiled every kernel (no binary-cache hit); flag it otherwise.
    cold_flag = "" if cold.get("cache_misses", 1) > 0 and cold.get("cache_disk_hits", 0) == 0 else " (cached!)"
    cmd = common + ["--iterations", str(args.iterations), "--out", out_dir]
    if args.flush_l2:
        cmd.append("--flush-l2")
    seam = json.loads(subprocess.run(cmd, env=env, check=True, capture_output=True,
                                     text=True).stdout.strip().splitlines()[-1])
    return cold, cold_flag, seam


def torch_calls(torch, direction, sets, qkv_shape):
    """How a PyTorch function is called on the input sets (forward: on q, k, v's source; backward: autograd),
    and the names of seam's outputs in the order the function returns them."""
    if direction == "forward":
        torch_sets = [(st["qkv"], st["cos"], st["sin"]) for st in sets]

        def calls_of(fn):
            return [lambda a=a: fn(*a) for a in torch_sets]

        return calls_of, ["q", "k", "v"]
    torch_sets = [(st["grad_q"], st["grad_k"], st["grad_v"], st["cos"], st["sin"]) for st in sets]

    def backward_calls_of(fn):
        return backward_calls(torch, fn, torch_sets, qkv_shape)

    return backward_calls_of, ["dqkv"]


def time_compiled(torch, fn, calls_of, args):
    """torch.compile of `fn` (dynamic=False): its first call's time and its timing, as the raw row's
    compile_* fields."""
    compiled = torch.compile(fn, dynamic=False)
    t0 = time.perf_counter()
    compiled_calls = calls_of(compiled)
    compiled_calls[0]()
    torch.cuda.synchronize()
    cold_s = time.perf_counter() - t0
    c_us, c_kernels, c_wall, c_call = time_torch(torch, compiled_calls, args.iterations, args.flush_l2)
    del compiled_calls
    torch._dynamo.reset()
    return dict(compile_us=c_us, compile_kernels=c_kernels, compile_wall_us=c_wall, compile_call_us=c_call,
                compile_cold_s=cold_s)


def table_line(row, cold_flag):
    """The markdown row of one workload row from its raw row (torch.compile's columns only when it ran)."""
    seam = row["seam"]
    c_text = "| - | - | - | - | - | - "
    if "compile_us" in row:
        c_text = (f"| {row['compile_kernels']} | {row['compile_us']:.1f} "
                  f"| {100 * seam['floor_us'] / row['compile_us']:.0f}% | {row['compile_wall_us']:.1f} "
                  f"| {row['compile_call_us']:.1f} | {row['compile_cold_s']:.2f} ")
    k_us = seam.get("kernel_us", -1)
    k_text = f"| {k_us:.1f} | {100 * seam['floor_us'] / k_us:.0f}% " if k_us > 0 else "| - | - "
    return (f"| {row['workload']} {row['config']} | {row['contract']} | {row['direction'][:3]} | {row['bs']} "
            f"| {row['T']} | {seam['floor_us']:.1f} "
            f"| {seam['kernels']} | {seam['seam_us']:.1f} | {seam['pct_floor']:.0f}% {k_text}"
            f"| {seam['wall_us']:.1f} | {seam.get('call_us', -1):.1f} "
            f"| {row['seam_cold_ms']:.0f}{cold_flag} | {seam['compile_ms']:.1f} | {row['eager_kernels']} "
            f"| {row['eager_us']:.1f} | {row['eager_wall_us']:.1f} "
            f"{c_text}| {row['max_abs_diff']:.4f} |")


def bench_row(args, torch, rate, work, row_key):
    """One row: inputs made and written, seam compiled cold and timed, eager and torch.compile timed on the
    same inputs; prints its table row and returns its raw row."""
    wid, contract, direction, bs, T = row_key
    name, nh, ng, hs, n, _ = CONFIGS[wid]
    row_dir = os.path.join(work, f"{wid}_{contract}_{direction}_{bs}_{T}")
    in_dir, out_dir, cache = (os.path.join(row_dir, d) for d in ("in", "out", "cache"))
    for d in (in_dir, out_dir, cache):
        os.makedirs(d)
    sets = [make_input_set(torch, 1000 + s, direction, bs, T, wid, contract) for s in range(3)]
    for key, t in sets[0].items():
        np.save(os.path.join(in_dir, key + ".npy"), to_npy(torch, t))
    cold, cold_flag, seam = run_seam(args, row_key, rate, in_dir, out_dir, cache)

    def eager(qkv, cos, sin):
        return rope_forward(torch, qkv, cos, sin, nh, ng, hs, n, contract)

    calls_of, seam_names = torch_calls(torch, direction, sets, (bs, T, (nh + 2 * ng) * hs))
    eager_calls = calls_of(eager)
    reference = [t.float() for t in eager_calls[0]()]
    diff = 0.0
    for i, ref in enumerate(reference):
        got = from_npy(torch, os.path.join(out_dir, seam_names[i] + ".npy")).to("cuda").float()
        diff = max(diff, (got - ref).abs().max().item())
    e_us, e_kernels, e_wall, e_call = time_torch(torch, eager_calls, args.iterations, args.flush_l2)
    row = {"workload": wid, "config": name, "contract": contract, "direction": direction, "bs": bs, "T": T,
           "seam": seam, "seam_cold_ms": cold["compile_ms"], "eager_us": e_us, "eager_kernels": e_kernels,
           "eager_wall_us": e_wall, "eager_call_us": e_call, "max_abs_diff": diff}
    if not args.no_compile:
        row.update(time_compiled(torch, eager, calls_of, args))
    del eager_calls
    print(table_line(row, cold_flag), flush=True)
    subprocess.run(["rm", "-rf", row_dir])
    return row


def main():
    args = parse_args()

    import torch  # only on the GPU machine; the rest of seam never needs it

    torch.manual_seed(0)
    if args.ncu_target:
        return run_ncu_target(torch, args)
    rate = copy_rate(torch)
    gpu = torch.cuda.get_device_name()
    print(f"device: {gpu}, torch {torch.__version__}, copy rate {rate / 1e12:.2f} TB/s"
          f"{', L2 flushed before every call' if args.flush_l2 else ''}\n")
    print_table_header()
    results = []
    work = tempfile.mkdtemp(prefix="seam_rope_")
    for row_key in selected_rows(args):
        results.append(bench_row(args, torch, rate, work, row_key))
        if args.json_out:  # after every row, so that a run cut by a timeout keeps what it measured
            with open(args.json_out, "w") as f:
                json.dump({"device": gpu, "torch": torch.__version__, "copy_rate": rate, "rows": results}, f,
                          indent=1)


if __name__ == "__main__":
    sys.exit(main())
