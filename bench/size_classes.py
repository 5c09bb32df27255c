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

Kernel times of the shape-generic kernels next to specialized ones at the benchmark shapes are
`bench_rope_gpu --sweep` (variant specialize-extents) and `seam bench FILE [--specialize-extents]`.
"""

import argparse
import json
import os
import statistics
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


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kinds", default="rope,softmax,rmsnorm")
    parser.add_argument("--quick", action="store_true", help="a few sizes per kind")
    parser.add_argument("--cpu", action="store_true", help="CPU tensors (the host backend), small sizes")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    device = torch.device("cpu" if args.cpu or not torch.cuda.is_available() else "cuda")
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
