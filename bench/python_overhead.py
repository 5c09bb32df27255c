"""The RoPE forward through seam's Python frontend (FusionDefinition.execute on CUDA tensors) next to
torch.compile of the same function, in one process: per-call wall time by CUDA events around the Python
call, GPU time as the summed kernel durations per call (torch.profiler's CUDA activity, which sees seam's
kernels too), medians over calls with 3 input sets rotated; the cold first execute of a definition (fresh
binary cache) and the first execute of a second, identical definition (its compiled kernels shared).

    PYTHONPATH=python python3 bench/python_overhead.py [--configs W1,W3,W8] [--batch 2] [--seq 4096]
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python", "examples"))
os.environ.setdefault("SEAM_CACHE_DIR", tempfile.mkdtemp(prefix="seam-bench-cache-"))

from rope import CONFIGS, define_rope, torch_rope  # noqa: E402
from nvfuser import FusionDefinition  # noqa: E402


def events_per_call(fn, input_sets, calls):
    times = []
    for i in range(calls):
        args = input_sets[i % len(input_sets)]
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn(*args)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3)
    return statistics.median(times)


def kernel_us_per_call(fn, input_sets, calls):
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for i in range(calls):
            fn(*input_sets[i % len(input_sets)])
        torch.cuda.synchronize()
    kernels = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    total = sum(e.device_time for e in kernels) if kernels and hasattr(kernels[0], "device_time") else sum(
        e.cuda_time for e in kernels)
    return total / calls, len(kernels) / calls


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configs", default="W1,W3,W8")
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--seq", type=int, default=4096)
    parser.add_argument("--calls", type=int, default=100)
    args = parser.parse_args()
    print("| config | seam cold first execute ms | same definition again, first execute ms | seam kernels/call "
          "| seam GPU us | seam call us (events) | call - GPU us | torch.compile GPU us | torch.compile call us "
          "| max abs diff vs eager |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in args.configs.split(","):
        nh, ng, hs, n = CONFIGS[name]
        b, t = args.batch, args.seq
        g = torch.Generator().manual_seed(0)
        sets = []
        for _ in range(3):
            sets.append([torch.randn(b, t, (nh + 2 * ng) * hs, generator=g).bfloat16().cuda(),
                         torch.randn(t, n, generator=g).bfloat16().cuda(),
                         torch.randn(t, n, generator=g).bfloat16().cuda()])
        with FusionDefinition() as fd:
            define_rope(fd, b, t, nh, ng, hs, n)
        start = time.perf_counter()
        out = fd.execute(sets[0])
        torch.cuda.synchronize()
        cold = (time.perf_counter() - start) * 1e3
        with FusionDefinition() as fd2:
            define_rope(fd2, b, t, nh, ng, hs, n)
        start = time.perf_counter()
        fd2.execute(sets[1])
        torch.cuda.synchronize()
        shared = (time.perf_counter() - start) * 1e3
        ref = torch_rope(*sets[0], nh, ng, hs, n)
        diff = max((o.float() - r.float()).abs().max().item() for o, r in zip(out, ref))

        def run_seam(*a):
            return fd.execute(list(a))

        for s in sets:  # warm every input set's signature
            run_seam(*s)
        seam_call = events_per_call(run_seam, sets, args.calls)
        seam_gpu, seam_kernels = kernel_us_per_call(run_seam, sets, 20)

        compiled = torch.compile(lambda q, c, s: torch_rope(q, c, s, nh, ng, hs, n))
        for s in sets:
            compiled(*s)
        torch.cuda.synchronize()
        tc_call = events_per_call(compiled, sets, args.calls)
        tc_gpu, _ = kernel_us_per_call(compiled, sets, 20)
        print(f"| {name} bs {b} T {t} | {cold:.1f} | {shared:.1f} | {seam_kernels:.0f} | {seam_gpu:.1f} | "
              f"{seam_call:.1f} | {seam_call - seam_gpu:.1f} | {tc_gpu:.1f} | {tc_call:.1f} | {diff:.4f} |",
              flush=True)


if __name__ == "__main__":
    main()
