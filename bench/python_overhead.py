"""The cost of seam's Python frontend (FusionDefinition.execute).

GPU mode (the default): the RoPE forward on CUDA tensors next to torch.compile of the same function, in
one process: per-call wall time by CUDA events around the Python call, GPU time as the summed kernel
durations per call (torch.profiler's CUDA activity, which sees seam's kernels too), medians over calls
with 3 input sets rotated; the cold first execute of a definition (fresh binary cache) and the first
execute of a second, identical definition (its compiled kernels shared); then a new process on the warm
disk cache (--cold's table).

--cpu: the frontend's own per-call cost without a GPU, on CPU tensors (seam's host backend): wall time per
execute of a cached signature and, where the frontend has them, its pieces (the C++ run alone, the key,
torch.empty per output); one eager torch op per call as this machine's yardstick. Best of 7 batches.

--pieces: --cpu's table on CUDA tensors: the CPU time of a call that only enqueues its kernel, in pieces
(the C++ run with its driver calls, the frontend, the key, torch.empty, the current stream), and the
cost of other ways to allocate the outputs (empty_strided, new_empty, one buffer viewed per output).

--cold: what a new process pays before its first launch, for the RoPE definition: import, definition,
first execute, with seam's compile stages (passes, segment, plan, backend); run twice on one disk cache
(SEAM_CACHE_DIR), so the second process reads the compiled kernels from disk on the GPU.

    PYTHONPATH=python python3 bench/python_overhead.py [--configs W1,W3,W8] [--batch 2] [--seq 4096]
    PYTHONPATH=python python3 bench/python_overhead.py --cpu
    PYTHONPATH=python python3 bench/python_overhead.py --pieces
    PYTHONPATH=python python3 bench/python_overhead.py --cold [--configs W1] [--device cpu]
"""

import argparse
import json
import os
import statistics
import subprocess
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


def best_us_per_call(fn, calls, batches=7):
    """Wall time per call: the best of `batches` batch means (the least disturbed by other work)."""
    for _ in range(min(calls, 200)):
        fn()
    means = []
    for _ in range(batches):
        start = time.perf_counter_ns()
        for _ in range(calls):
            fn()
        means.append((time.perf_counter_ns() - start) / calls / 1e3)
    return min(means), statistics.median(means)


def allocation_strategies(shapes, like, calls):
    """CPU us per call of ways to allocate a call's outputs through PyTorch, for the choice of the one
    execute uses: torch.empty per output, torch.empty_strided, new_empty from an input, and one byte
    buffer per call viewed as every output (outputs would then share one storage)."""
    device = like.device
    strides = []
    for shape, _ in shapes:
        stride, acc = [], 1
        for extent in reversed(shape):
            stride.insert(0, acc)
            acc *= max(extent, 1)
        strides.append(tuple(stride))
    sizes = [torch.empty((), dtype=dtype).element_size() * max(1, int(torch.Size(shape).numel()))
             for shape, dtype in shapes]
    offsets, total = [], 0
    for size in sizes:
        offsets.append(total)
        total += (size + 255) // 256 * 256

    def one_buffer():
        buffer = torch.empty(total, dtype=torch.uint8, device=device)
        return [buffer[o:o + n].view(dtype).view(shape) for (shape, dtype), o, n in zip(shapes, offsets, sizes)]

    strategies = {
        "empty": lambda: [torch.empty(shape, dtype=dtype, device=device) for shape, dtype in shapes],
        "empty_strided": lambda: [torch.empty_strided(shape, st, dtype=dtype, device=device)
                                  for (shape, dtype), st in zip(shapes, strides)],
        "new_empty": lambda: [like.new_empty(shape, dtype=dtype) for shape, dtype in shapes],
        "one_buffer": one_buffer,
    }
    return {name: best_us_per_call(fn, calls)[0] for name, fn in strategies.items()}


def pieces_mode(args, device):
    """The frontend's per-call cost in pieces: a one-kernel pointwise fusion and the RoPE definition
    (config 'small', three inputs, two computed outputs and one view) at tiny extents so that the kernel
    costs little. On CPU tensors the host backend runs the kernel in the call; on CUDA tensors a call
    only enqueues it (back-to-back calls, one synchronize per batch), so the times are the CPU's."""
    from seam.runner import Specialization  # noqa: F401  (the frontend under test)

    g = torch.Generator().manual_seed(0)
    x, y = torch.randn(4, 8, generator=g).to(device), torch.randn(4, 8, generator=g).to(device)
    with FusionDefinition() as add_fd:
        a = add_fd.define_tensor(shape=[-1, -1], contiguity=[True, True])
        b = add_fd.define_tensor(shape=[-1, -1], contiguity=[True, True])
        add_fd.add_output(add_fd.ops.add(a, b))
    nh, ng, hs, n = CONFIGS["small"]
    bt, t = 1, 4
    rope_inputs = [torch.randn(bt, t, (nh + 2 * ng) * hs, generator=g).bfloat16().to(device),
                   torch.randn(t, n, generator=g).bfloat16().to(device),
                   torch.randn(t, n, generator=g).bfloat16().to(device)]
    with FusionDefinition() as rope_fd:
        define_rope(rope_fd, bt, t, nh, ng, hs, n)
    rows = []
    for name, fd, inputs in (("add f32[4,8] (1 kernel, 1 output)", add_fd, [x, y]),
                             (f"RoPE small bs {bt} T {t} (1 kernel, 3 outputs)", rope_fd, rope_inputs)):
        fd.execute(inputs)
        total, total_median = best_us_per_call(lambda: fd.execute(inputs), args.calls)
        row = {"fusion": name, "execute_us": total, "execute_median_us": total_median}
        spec = fd._last
        runner = getattr(spec, "_runner", None)
        if runner is not None:  # the pieces, where this frontend has them
            outs = [torch.empty(shape, dtype=dtype, device=device) for dtype, shape in spec.output_types]
            addresses = [inputs[slot].data_ptr() for slot in spec._slots]
            buffers = [o.data_ptr() for o in outs]
            stream = spec._stream(spec._stream_index) if device == "cuda" else 0
            row["cpp_run_us"] = best_us_per_call(lambda: runner.run(addresses, buffers, stream), args.calls)[0]
            if device == "cuda":
                row["stream_us"] = best_us_per_call(lambda: spec._stream(spec._stream_index), args.calls)[0]
            entry = fd._entry
            row["key_us"] = best_us_per_call(lambda: entry.fast_key(inputs, None), args.calls)[0]
            shapes = [(shape, dtype) for dtype, shape in spec.output_types]
            row["torch_empty_us"] = best_us_per_call(
                lambda: [torch.empty(shape, dtype=dtype, device=device) for shape, dtype in shapes], args.calls)[0]
            row["allocation_us"] = allocation_strategies(shapes, inputs[0], args.calls)
            # The frontend alone: execute with the C++ run stubbed out (key, lookup, marshalling, output
            # allocation and wrapping).
            class NoRun:
                def run(self, addresses, buffers, stream=0):
                    pass

            spec._runner = NoRun()
            try:
                row["frontend_us"] = best_us_per_call(lambda: fd.execute(inputs), args.calls)[0]
            finally:
                spec._runner = runner
        rows.append(row)
        if device == "cuda":
            torch.cuda.synchronize()
    eager = best_us_per_call(lambda: torch.add(x, y), args.calls)[0]
    if device == "cuda":
        torch.cuda.synchronize()
    print(f"on {device} tensors; torch eager add f32[4,8] (this machine's yardstick): {eager:.2f} us per call")
    print("| fusion | execute us (best / median batch) | C++ run us | frontend us (execute, C++ run stubbed) "
          "| fast key us | torch.empty of the outputs us | current stream us |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        get = lambda k: f"{r[k]:.2f}" if k in r else "-"  # noqa: E731
        print(f"| {r['fusion']} | {r['execute_us']:.2f} / {r['execute_median_us']:.2f} | {get('cpp_run_us')} | "
              f"{get('frontend_us')} | {get('key_us')} | {get('torch_empty_us')} | {get('stream_us')} |")
    print("\nallocating a call's outputs (us per call):")
    for r in rows:
        if "allocation_us" in r:
            print(f"  {r['fusion']}: " + ", ".join(f"{k} {v:.2f}" for k, v in r["allocation_us"].items()))


COLD_CHILD = """
import json, sys, time
start = time.perf_counter()
import torch
after_torch = time.perf_counter()
sys.path.insert(0, {examples!r})
from nvfuser import FusionDefinition
after_import = time.perf_counter()
from rope import CONFIGS, define_rope
nh, ng, hs, n = CONFIGS[{config!r}]
b, t = {batch}, {seq}
with FusionDefinition() as fd:
    define_rope(fd, b, t, nh, ng, hs, n)
defined = time.perf_counter()
device = {device!r}
qkv = torch.zeros(b, t, (nh + 2 * ng) * hs, dtype=torch.bfloat16, device=device)
cos = torch.zeros(t, n, dtype=torch.bfloat16, device=device)
sin = torch.zeros(t, n, dtype=torch.bfloat16, device=device)
if device == "cuda":
    torch.cuda.synchronize()
made = time.perf_counter()
fd.execute([qkv, cos, sin])
if device == "cuda":
    torch.cuda.synchronize()
first = time.perf_counter()
times = dict(fd._last.executable().compile_times()) if hasattr(fd._last.executable(), "compile_times") else {{}}
print(json.dumps({{"import_torch_ms": (after_torch - start) * 1e3, "import_seam_ms": (after_import - after_torch) * 1e3,
                  "define_ms": (defined - after_import) * 1e3, "first_execute_ms": (first - made) * 1e3,
                  "compile": times}}))
"""


def cold_mode(args):
    """Two new processes, one after the other, on one disk cache: the second is the warm-cache cold start."""
    device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    examples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "examples")
    cache = tempfile.mkdtemp(prefix="seam-cold-cache-")
    env = dict(os.environ, SEAM_CACHE_DIR=cache)
    print(f"| config | process | device | import torch ms | import nvfuser (seam) ms | define ms | first execute ms "
          "| of which passes / segment / plan / backend ms | frontend (first execute - compile) ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in args.configs.split(","):
        batch, seq = (args.batch, args.seq) if device == "cuda" else (1, 8)
        for process in ("first (empty disk cache)", "second (disk cache warm)"):
            code = COLD_CHILD.format(examples=examples, config=name, batch=batch, seq=seq, device=device)
            result = subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True,
                                    env=env)
            if result.returncode != 0:
                print(result.stderr, file=sys.stderr)
                raise SystemExit(f"the {process} process failed")
            r = json.loads(result.stdout.strip().splitlines()[-1])
            c = r["compile"]
            stages = " / ".join(f"{c.get(k, float('nan')):.1f}" for k in ("passes", "segment", "plan", "backend"))
            frontend = r["first_execute_ms"] - sum(c.values()) if c else float("nan")
            print(f"| {name} bs {batch} T {seq} | {process} | {device} | {r['import_torch_ms']:.0f} | "
                  f"{r['import_seam_ms']:.1f} | {r['define_ms']:.1f} | {r['first_execute_ms']:.1f} | {stages} | "
                  f"{frontend:.1f} |", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configs", default=None, help="RoPE configurations (GPU: W1,W3,W8; --cold: W1)")
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--seq", type=int, default=4096)
    parser.add_argument("--calls", type=int, default=None, help="calls per measurement (GPU 100, --cpu 2000)")
    parser.add_argument("--cpu", action="store_true", help="the frontend's per-call cost on CPU tensors")
    parser.add_argument("--pieces", action="store_true", help="--cpu's pieces on CUDA tensors (CPU time per call)")
    parser.add_argument("--cold", action="store_true", help="new processes on one disk cache (RoPE)")
    parser.add_argument("--device", default=None, help="--cold: cpu or cuda (default: cuda when there is one)")
    args = parser.parse_args()
    if args.cpu or args.pieces:
        args.calls = args.calls or 2000
        return pieces_mode(args, "cuda" if args.pieces else "cpu")
    if args.cold:
        args.configs = args.configs or "W1"
        return cold_mode(args)
    args.configs = args.configs or "W1,W3,W8"
    args.calls = args.calls or 100
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
