"""Sizes that change without recompiling (docs/CODEGEN.md, "Size classes"): over a sweep of sizes, how
many compiles seam pays and what a first call at a new size costs next to a repeated call.

Each size is a new FusionDefinition with static shapes, as Thunder hands nvFuser one per input shape; seam
names kernels by their text, so a size whose kernels print as an earlier size's loads nothing new. Per
fusion kind: sizes, compiles (`fd.last_compile_info()["module"] == "compiled"`; the kernel cache is a new
empty directory per run), binary-cache loads, shared modules; the first execute's wall time and a
repeated execute's (medians over the sizes that shared a module, so NVRTC is not in them), their
difference, and seam's compile stages on those first calls.

  RoPE forward (Thunder's qkv split + rotary, python/examples/rope.py), W1/W3/W8, batch 1-8, T 1-8192
  softmax and RMSNorm rows, N 256-262144, M 1-4096 (rows x N capped at 2^27 elements)

    PYTHONPATH=python python3 bench/size_classes.py [--kinds rope,softmax,rmsnorm] [--quick] [--json]
    PYTHONPATH=python python3 bench/size_classes.py --cpu --quick   # host backend, small sizes

--symbolic: the new user's path instead: one definition per kind with symbolic extents (shape -1), run
over a sweep of row counts at fixed row lengths, then of row lengths at a fixed row count (softmax,
RMSNorm, RMSNorm backward with its weight gradient as an outer reduction, exp(x) * rsqrt(sum(x * x))):
compiles, first and repeated calls, the compile stages run and those reused (`last_compile_info()`).

--side-by-side SEAM: generic kernels (extents as arguments) next to specialized ones (literals) at the
benchmark shapes, in one run on one GPU: `SEAM bench --json` of the reduction set (bench/reductions/*.seam)
and RoPE W1/W3/W8 forward and backward, with and without --specialize-extents; kernel times (CUPTI) and
their ratio.

    PYTHONPATH=python python3 bench/size_classes.py --symbolic [--quick] [--cpu]
    PYTHONPATH=python python3 bench/size_classes.py --side-by-side build/tools/seam
"""

import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python", "examples"))
os.environ.setdefault("SEAM_CACHE_DIR", tempfile.mkdtemp(prefix="seam-size-classes-"))

from rope import CONFIGS, define_rope  # noqa: E402
from nvfuser import DataType, FusionDefinition  # noqa: E402


def rope_sizes(quick):
    ts = [1, 2, 3, 7, 8, 9, 63, 64, 65, 127, 128, 1000, 4095, 4096] if quick else sorted(
        set(range(1, 66)) | {97, 127, 128, 129, 255, 256, 257, 511, 512, 1000, 1023, 1024, 1025, 2047, 2048,
                             3001, 4095, 4096, 4097, 6143, 8191, 8192})
    batches = [1, 2] if quick else [1, 2, 3, 4, 8]
    for config in ("W1", "W3", "W8"):
        for batch in batches:
            for t in ts:
                yield config, batch, t


def rope_case(config, batch, t, device):
    nh, ng, hs, n = CONFIGS[config]

    def define(fd):
        define_rope(fd, batch, t, nh, ng, hs, n)

    qkv = torch.randn(batch, t, (nh + 2 * ng) * hs, device=device, dtype=torch.bfloat16)
    cos = torch.randn(t, n, device=device, dtype=torch.bfloat16)
    sin = torch.randn(t, n, device=device, dtype=torch.bfloat16)
    return f"rope {config}", define, [qkv, cos, sin]


def row_sizes(quick, limit):
    ns = [256, 257, 1000, 1024, 4096, 4097] if quick else [
        256, 257, 300, 512, 1000, 1024, 1536, 2048, 3000, 4096, 4097, 5000, 8192, 11008, 16384, 32000, 32768,
        50257, 65536, 128256, 131072, 262144]
    ms = [1, 3, 64] if quick else [1, 2, 3, 7, 64, 1000, 4096]
    for n in ns:
        for m in ms:
            if m * n <= limit:
                yield m, n


def softmax_case(m, n, device):
    def define(fd):
        x = fd.define_tensor(shape=[m, n], contiguity=[True, True], dtype=DataType.Float)
        mx = fd.ops.max(x, [1], keepdim=True)
        e = fd.ops.exp(fd.ops.sub(x, fd.ops.broadcast_in_dim(mx, shape=[m, n], broadcast_dims=[0, 1])))
        s = fd.ops.sum(e, [1], keepdim=True)
        fd.add_output(fd.ops.div(e, fd.ops.broadcast_in_dim(s, shape=[m, n], broadcast_dims=[0, 1])))

    return "softmax f32", define, [torch.randn(m, n, device=device)]


def rmsnorm_case(m, n, device):
    def define(fd):
        x = fd.define_tensor(shape=[m, n], contiguity=[True, True], dtype=DataType.BFloat16)
        w = fd.define_tensor(shape=[n], contiguity=[True], dtype=DataType.BFloat16)
        xf = fd.ops.cast(x, DataType.Float)
        var = fd.ops.sum(fd.ops.mul(xf, xf), [1], keepdim=True)
        var = fd.ops.mul(var, fd.define_scalar(1.0 / n, dtype=DataType.Double))
        r = fd.ops.rsqrt(fd.ops.add(var, fd.define_scalar(1e-6, dtype=DataType.Double)))
        y = fd.ops.mul(xf, fd.ops.broadcast_in_dim(r, shape=[m, n], broadcast_dims=[0, 1]))
        y = fd.ops.mul(y, fd.ops.cast(fd.ops.broadcast_in_dim(w, shape=[m, n], broadcast_dims=[1]), DataType.Float))
        fd.add_output(fd.ops.cast(y, DataType.BFloat16))

    x = torch.randn(m, n, device=device, dtype=torch.bfloat16)
    w = torch.randn(n, device=device, dtype=torch.bfloat16)
    return "rmsnorm bf16", define, [x, w]


def synchronize(device):
    if device.type == "cuda":
        torch.cuda.synchronize()


def measure(kind, cases, device):
    """One new definition per size: its first execute and a repeat, and where its module came from."""
    origins, first_shared, repeat_shared, stages = {}, [], [], {}
    for _, define, inputs in cases:
        with FusionDefinition() as fd:
            define(fd)
        synchronize(device)
        start = time.perf_counter()
        fd.execute(inputs)
        synchronize(device)
        first = (time.perf_counter() - start) * 1e3
        start = time.perf_counter()
        fd.execute(inputs)
        synchronize(device)
        repeat = (time.perf_counter() - start) * 1e3
        info = fd.last_compile_info()
        origins[info["module"]] = origins.get(info["module"], 0) + 1
        if info["module"] == "loaded":
            first_shared.append(first)
            repeat_shared.append(repeat)
            for stage, ms in info["stages"].items():
                stages.setdefault(stage, []).append(ms)
    row = {"kind": kind, "sizes": len(cases), "compiled": origins.get("compiled", 0),
           "cache": origins.get("cache", 0), "loaded": origins.get("loaded", 0)}
    if first_shared:
        row["first_ms"] = statistics.median(first_shared)
        row["repeat_ms"] = statistics.median(repeat_shared)
        row["extra_ms"] = statistics.median(f - r for f, r in zip(first_shared, repeat_shared))
        row["stages_ms"] = {s: round(statistics.median(v), 3) for s, v in stages.items()}
    return row


# --- the new user's path: one definition with symbolic extents per kind ----------------------------


def _symbolic_rows(fd, kind, dtype):
    """Defines `kind` over x [-1, -1] (and its other inputs); returns nothing."""
    x = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=dtype)
    xf = fd.ops.cast(x, DataType.Float)
    if kind == "scaled_exp":
        s = fd.ops.sum(fd.ops.mul(xf, xf), [1], keepdim=True)
        fd.add_output(fd.ops.cast(fd.ops.mul(fd.ops.exp(xf), fd.ops.rsqrt(s)), dtype))
    elif kind == "softmax":
        mx = fd.ops.max(xf, [1], keepdim=True)
        e = fd.ops.exp(fd.ops.sub(xf, mx))
        fd.add_output(fd.ops.cast(fd.ops.div(e, fd.ops.sum(e, [1], keepdim=True)), dtype))
    elif kind == "rmsnorm":
        w = fd.define_tensor(shape=[-1], contiguity=[True], dtype=dtype)
        var = fd.ops.add(fd.ops.sum(fd.ops.mul(xf, xf), [1], keepdim=True), fd.define_scalar(1e-6))
        y = fd.ops.mul(fd.ops.mul(xf, fd.ops.rsqrt(var)), fd.ops.cast(w, DataType.Float))
        fd.add_output(fd.ops.cast(y, dtype))
    elif kind == "rmsnorm_bwd":  # dx and dw = sum over rows of dy * xhat (an outer reduction)
        dy = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=dtype)
        w = fd.define_tensor(shape=[-1], contiguity=[True], dtype=dtype)
        rstd = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Float)
        xhat = fd.ops.mul(xf, rstd)
        dyf = fd.ops.cast(dy, DataType.Float)
        g = fd.ops.mul(dyf, fd.ops.cast(w, DataType.Float))
        mean = fd.ops.div(fd.ops.sum(fd.ops.mul(g, xhat), [1], keepdim=True), fd.ops.cast(x.size(1), DataType.Float))
        fd.add_output(fd.ops.cast(fd.ops.mul(rstd, fd.ops.sub(g, fd.ops.mul(xhat, mean))), dtype))
        fd.add_output(fd.ops.cast(fd.ops.sum(fd.ops.mul(dyf, xhat), [0]), dtype))
    else:
        raise SystemExit(f"unknown kind {kind!r}")


def _symbolic_inputs(kind, m, n, device, dtype):
    x = torch.randn(m, n, device=device, dtype=dtype)
    if kind in ("scaled_exp", "softmax"):
        return [x]
    w = torch.randn(n, device=device, dtype=dtype)
    if kind == "rmsnorm":
        return [x, w]
    return [x, torch.randn(m, n, device=device, dtype=dtype), w, torch.rand(m, 1, device=device) + 0.5]


def measure_symbolic(kind, sizes, device):
    """One definition with symbolic extents over `sizes`: per size where its module came from, the first
    call and a repeat (ms), and the compile stages run and reused."""
    dtype = DataType.BFloat16
    with FusionDefinition() as fd:
        _symbolic_rows(fd, kind, dtype)
    per_size = []
    for m, n in sizes:
        inputs = _symbolic_inputs(kind, m, n, device, torch.bfloat16)
        synchronize(device)
        start = time.perf_counter()
        fd.execute(inputs)
        synchronize(device)
        first = (time.perf_counter() - start) * 1e3
        start = time.perf_counter()
        fd.execute(inputs)
        synchronize(device)
        repeat = (time.perf_counter() - start) * 1e3
        info = fd.last_compile_info()
        per_size.append({"m": m, "n": n, "module": info["module"], "first_ms": round(first, 3),
                         "repeat_ms": round(repeat, 3), "reused": info["reused"],
                         "stages_ms": {k: round(v, 3) for k, v in info["stages"].items()}})
    return per_size


def symbolic_sweeps(kinds, quick, device):
    ms = [4, 1, 7, 64, 300, 1000, 4096] if quick else [4, 1, 2, 3, 7, 16, 64, 100, 300, 1000, 2048, 4096, 8192, 16384]
    ns = [1024, 1000, 1016, 2048, 4096, 4000, 8192] if quick else [
        1024, 1000, 1016, 1008, 768, 2048, 2000, 3000, 4096, 4000, 5120, 8192, 8000, 11008, 16384]
    if device.type == "cpu":
        ms, ns = [m for m in ms if m <= 300], [n for n in ns if n <= 4096]
    rows = []
    for kind in kinds:
        for sweep, sizes in (("rows", [(m, 4096 if device.type == "cuda" else 1024) for m in ms]),
                             ("lengths", [(64, n) for n in ns])):
            per_size = measure_symbolic(kind, sizes, device)
            new = [p for p in per_size[1:] if p["module"] == "loaded"]
            rows.append({"kind": kind, "sweep": sweep, "sizes": len(per_size),
                         "compiled": sum(p["module"] == "compiled" for p in per_size),
                         "loaded": sum(p["module"] == "loaded" for p in per_size),
                         "first_ms": statistics.median(p["first_ms"] for p in new) if new else None,
                         "repeat_ms": statistics.median(p["repeat_ms"] for p in new) if new else None,
                         "host_ms": statistics.median(sum(p["stages_ms"].values()) for p in new) if new else None,
                         "segment_reused": sum(p["reused"] == ["segment"] for p in per_size),
                         "per_size": per_size})
    return rows


# --- generic next to specialized kernels at the benchmark shapes (seam bench) ----------------------


def side_by_side(seam, iterations):
    here = os.path.dirname(os.path.abspath(__file__))
    work = tempfile.mkdtemp(prefix="seam-side-by-side-")
    files = sorted(glob.glob(os.path.join(here, "reductions", "*.seam")))
    for config in ("W1", "W3", "W8"):
        for backward in (False, True):
            path = os.path.join(work, f"rope_{config}_{'bwd' if backward else 'fwd'}.seam")
            subprocess.run([seam, "workload", "rope", "--config", config, "--batch", "2", "--contract", "thunder",
                            *(["--backward"] if backward else []), "-o", path], check=True)
            files.append(path)

    def bench(flags):
        out = subprocess.run([seam, "bench", *files, "--json", "--iterations", str(iterations), *flags],
                             check=True, capture_output=True, text=True).stdout
        return {json.loads(line)["file"]: json.loads(line) for line in out.splitlines() if line.startswith("{")}

    generic = bench([])
    specialized = bench(["--specialize-extents"])
    rows = []
    for f in files:
        g, s = generic.get(f), specialized.get(f)
        if not g or not s:
            continue
        gk, sk = g.get("kernel_us"), s.get("kernel_us")
        rows.append({"file": os.path.basename(f), "generic_us": gk, "specialized_us": sk,
                     "generic_over_specialized": round(gk / sk, 4) if gk and sk else None,
                     "generic_events_us": g.get("events_us"), "specialized_events_us": s.get("events_us")})
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kinds", default="rope,softmax,rmsnorm")
    parser.add_argument("--quick", action="store_true", help="a few sizes per kind")
    parser.add_argument("--cpu", action="store_true", help="CPU tensors (the host backend), small sizes")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--symbolic", action="store_true",
                        help="one definition with symbolic extents per kind, over row-count and row-length sweeps")
    parser.add_argument("--symbolic-kinds", default="scaled_exp,softmax,rmsnorm,rmsnorm_bwd")
    parser.add_argument("--side-by-side", metavar="SEAM",
                        help="generic next to specialized kernels: seam bench of the reduction set and RoPE")
    parser.add_argument("--iterations", type=int, default=50, help="--side-by-side: timed runs per file")
    args = parser.parse_args()
    if args.side_by_side:
        rows = side_by_side(args.side_by_side, args.iterations)
        for r in rows:
            print(json.dumps(r) if args.json else
                  f"{r['file']:<40} generic {r['generic_us']} us  specialized {r['specialized_us']} us  "
                  f"ratio {r['generic_over_specialized']}")
        return
    device = torch.device("cpu" if args.cpu or not torch.cuda.is_available() else "cuda")
    if args.symbolic:
        print(f"device: {torch.cuda.get_device_name() if device.type == 'cuda' else 'cpu (host backend)'}")
        for r in symbolic_sweeps(args.symbolic_kinds.split(","), args.quick, device):
            if args.json:
                print(json.dumps(r))
                continue
            print(f"{r['kind']:<12} {r['sweep']:<8} sizes {r['sizes']:>3}  compiled {r['compiled']:>2}  loaded "
                  f"{r['loaded']:>3}  segment reused {r['segment_reused']:>3}  new size: first {r['first_ms']} ms, "
                  f"repeat {r['repeat_ms']} ms, compile stages {r['host_ms']} ms")
            for p in r["per_size"]:
                print(f"    {p['m']:>6} x {p['n']:<6} {p['module']:<9} first {p['first_ms']:>9.3f} ms  repeat "
                      f"{p['repeat_ms']:>8.3f} ms  reused {p['reused']}  {p['stages_ms']}")
        return
    limit = 1 << 16 if device.type == "cpu" else 1 << 27
    rows = []
    for kind in args.kinds.split(","):
        if kind == "rope":
            sizes = [(c, b, t) for c, b, t in rope_sizes(args.quick)
                     if device.type == "cuda" or b * t * 12288 <= limit * 8]
            by_config = {}
            for c, b, t in sizes:
                by_config.setdefault(c, []).append(rope_case(c, b, t, device))
            for config, cases in by_config.items():
                rows.append(measure(f"rope {config} fwd", cases, device))
        elif kind in ("softmax", "rmsnorm"):
            make = softmax_case if kind == "softmax" else rmsnorm_case
            rows.append(measure(make(1, 256, device)[0], [make(m, n, device) for m, n in row_sizes(args.quick, limit)],
                                device))
        else:
            raise SystemExit(f"unknown kind {kind!r} (rope, softmax, rmsnorm)")
    if args.json:
        for row in rows:
            print(json.dumps(row))
        return
    print(f"device: {torch.cuda.get_device_name() if device.type == 'cuda' else 'cpu (host backend)'}")
    print(f"{'kind':<18} {'sizes':>6} {'compiled':>9} {'cache':>6} {'loaded':>7} {'first ms':>9} "
          f"{'repeat ms':>10} {'extra ms':>9}  stages of a shared first call (ms)")
    for r in rows:
        print(f"{r['kind']:<18} {r['sizes']:>6} {r['compiled']:>9} {r['cache']:>6} {r['loaded']:>7} "
              f"{r.get('first_ms', float('nan')):>9.3f} {r.get('repeat_ms', float('nan')):>10.3f} "
              f"{r.get('extra_ms', float('nan')):>9.3f}  {r.get('stages_ms', {})}")


if __name__ == "__main__":
    main()
