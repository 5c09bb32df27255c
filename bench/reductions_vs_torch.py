#!/usr/bin/env python3
"""seam next to PyTorch eager and torch.compile on the reduction benchmark, in one run on the GPU machine.

For every fusion file (the set in bench/reductions/, or --sweep DIR as make_sweep.py writes it; each file
names its kind and shape in its `# bench: KIND M N` line): inputs are made here (torch, seeded) and set 0 is
written as .npy; `seam bench FILE --inputs D --out D --json` times seam (3 input sets rotated, events and
CUPTI kernel durations) and writes its outputs for set 0; eager and torch.compile (dynamic=False) run the
one PyTorch definition of the kind (bench/reductions/torch_functions.py) on the same 3 sets, timed by the
summed kernel durations of a call (torch.profiler, median over calls) and by events around calls launched
back to back (median), as seam is. seam's and torch.compile's outputs are compared with eager's: an element
passes when |out - eager| <= rtol * |eager| + atol * max|eager| (bf16: rtol 1.6e-2, atol 1e-3; f32: rtol
1e-4, atol 1e-5); "max error" gives the largest |out - eager| and that over max|eager|. Prints one markdown
table; --json-out writes the raw rows after every row. Exits 1 when any output mismatches or seam fails.

Usage: python3 bench/reductions_vs_torch.py [--seam build/tools/seam] [--sweep DIR] [--only KIND,...]
       [--one-per-kind] [--iterations N] [--no-compile] [--knob=FLAG ...] [--json-out FILE] [--list]
"""
import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "reductions"))
import fusions  # noqa: E402  (standard library only)
from torch_helpers import copy_rate, to_npy  # noqa: E402  (bench/, the script's folder)

TOLERANCES = {"bf16": (1.6e-2, 1e-3), "f32": (1e-4, 1e-5)}  # (rtol, atol as a fraction of max|eager|)


def rows_of(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            header = fusions.parse_header(f.read())
        if header is None:
            raise SystemExit(f"{path}: no '# bench: KIND M N' line (write it with bench/reductions/make_sweep.py)")
        rows.append((path,) + header)
    order = list(fusions.KINDS)  # kind by kind, then by row length and rows
    return sorted(rows, key=lambda r: (order.index(r[1]) if r[1] in order else len(order), r[3], r[2]))


def select(rows, only, one_per_kind):
    """The rows of the kinds in `only` (comma-separated; all when empty), with `one_per_kind` only each
    kind's largest shape."""
    if only:
        kinds = set(only.split(","))
        unknown = kinds - set(fusions.KINDS)
        if unknown:
            raise SystemExit(f"unknown kind(s) {', '.join(sorted(unknown))} (known: {', '.join(fusions.KINDS)})")
        rows = [r for r in rows if r[1] in kinds]
    if one_per_kind:
        largest = {}
        for row in sorted(rows):
            if row[1] not in largest or row[2] * row[3] > largest[row[1]][2] * largest[row[1]][3]:
                largest[row[1]] = row
        rows = [r for r in rows if largest[r[1]] is r]
    return rows


def from_npy(np, torch, path, bf16):
    t = torch.from_numpy(np.load(path))
    return t.view(torch.bfloat16) if bf16 else t


def time_torch(torch, calls, iterations):
    """(kernel us per call: the median of the profiler's per-call kernel sums, kernels per call, events us:
    the median of events around each call, calls launched back to back); `calls` rotate over input sets."""
    from torch.profiler import ProfilerActivity, profile

    for i in range(5):
        calls[i % len(calls)]()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(iterations)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(iterations)]
    for i in range(iterations):
        starts[i].record()
        calls[i % len(calls)]()
        ends[i].record()
    torch.cuda.synchronize()
    events_us = statistics.median(s.elapsed_time(e) * 1e3 for s, e in zip(starts, ends))
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for i in range(iterations):
            calls[i % len(calls)]()
        torch.cuda.synchronize()
    kernels = sorted((e for e in prof.events() if e.device_type.name == "CUDA"), key=lambda e: e.time_range.start)
    per = max(1, len(kernels) // iterations)  # every call launches the same kernels
    sums = [sum(e.time_range.elapsed_us() for e in kernels[i * per:(i + 1) * per]) for i in range(iterations)]
    return statistics.median(sums), per, events_us


def compare(torch, outputs, reference, dtypes):
    """(ok, max abs error, max abs error / max |eager|) over all outputs."""
    ok, worst_abs, worst_rel = True, 0.0, 0.0
    for out, ref, dtype in zip(outputs, reference, dtypes):
        rtol, atol = TOLERANCES[dtype]
        a, b = out.to("cuda").double(), ref.double()
        if a.shape != b.shape:
            return False, float("inf"), float("inf")
        err = (a - b).abs()
        scale = max(b.abs().max().item(), 1e-30)
        finite = bool(torch.isfinite(a).all().item()) or not bool(torch.isfinite(b).all().item())
        ok = ok and finite and bool((err <= rtol * b.abs() + atol * scale).all().item())
        worst_abs = max(worst_abs, err.max().item())
        worst_rel = max(worst_rel, err.max().item() / scale)
    return ok, worst_abs, worst_rel


def run_seam(args, path, in_dir, out_dir, rate):
    cmd = [args.seam, "bench", path, "--json", "--iterations", str(args.iterations), "--copy-rate",
           f"{rate / 1e12:.6f}", "--inputs", in_dir, "--out", out_dir] + args.knob
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"seam bench failed (exit {r.returncode}): {r.stderr.strip() or r.stdout.strip()}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seam", default="build/tools/seam", help="the seam binary (gpu-bin/seam on the GPU machine)")
    p.add_argument("--sweep", metavar="DIR", help="the fusion files of DIR (make_sweep.py DIR) instead of the set")
    p.add_argument("--only", help="only these kinds, comma-separated (rmsnorm_fwd,softmax_fwd)")
    p.add_argument("--one-per-kind", action="store_true",
                   help="per kind only its largest shape (scripts/gpu_check.sh verify: the set in less time)")
    p.add_argument("--iterations", type=int, default=30, help="timed calls per implementation (capped at 200)")
    p.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    p.add_argument("--knob", action="append", default=[], metavar="FLAG",
                   help="a scheduler knob passed to seam bench, repeatable (--knob=--row-load-ahead)")
    p.add_argument("--json-out")
    p.add_argument("--list", action="store_true", help="print the selected fusions and stop (no GPU or torch needed)")
    args = p.parse_args()
    args.iterations = max(1, min(args.iterations, 200))
    return args


def print_table_header():
    header = ("| fusion | shape | floor us | seam kernel us (% floor) | torch.compile us (% floor) | eager us "
              "| seam kernels | torch.compile kernels | max error seam (rel) | max error compile (rel) "
              "| faster than compile | seam events us | compile events us |")
    print(header)
    print("|" + "---|" * (header.count("|") - 1), flush=True)


def time_compiled(torch, fn, calls_of, reference, out_dtypes, iterations, label, failures):
    """torch.compile of `fn` (dynamic=False): its first call's time, its outputs checked against eager's and
    its timing, as the raw row's compile_* fields; None when compiling fails (a finding of its own: recorded
    in `failures`, the run goes on)."""
    try:
        compiled = torch.compile(fn, dynamic=False)
        t0 = time.perf_counter()
        compiled_out = list(calls_of(compiled)[0]())
        torch.cuda.synchronize()
        cold_s = time.perf_counter() - t0
        c_ok, c_abs, c_rel = compare(torch, compiled_out, reference, out_dtypes)
        c_us, c_kernels, c_events = time_torch(torch, calls_of(compiled), iterations)
    except Exception as e:
        failures.append(f"{label}: torch.compile failed: {type(e).__name__}: {str(e).splitlines()[0][:200]}")
        return None
    finally:
        compiled = compiled_out = None
        torch._dynamo.reset()
    if not c_ok:
        failures.append(f"{label}: torch.compile's outputs differ from eager (max abs {c_abs:.3g})")
    return dict(compile_us=c_us, compile_kernels=c_kernels, compile_events_us=c_events, compile_cold_s=cold_s,
                compile_ok=c_ok, compile_max_abs=c_abs, compile_max_rel=c_rel)


def table_line(kind, m, n, row, no_compile):
    """The markdown row of one fusion from its raw row (torch.compile's columns only when it ran)."""
    seam = row["seam"]
    floor = seam["floor_us"]
    # Kernels launched per call as CUPTI saw them; the plan's count where CUPTI was not there.
    seam_kernels = seam["kernels_recorded"] if seam.get("kernels_recorded") is not None else seam["kernels"]
    s_us = seam["kernel_us"] if seam.get("kernel_us") is not None else seam["events_us"]
    s_mark = "" if seam.get("kernel_us") is not None else " (events)"
    e_us, seam_ok = row["eager_us"], row["seam_ok"]
    seam_abs, seam_rel = row["seam_max_abs"], row["seam_max_rel"]
    if "compile_us" in row:
        c_us, c_ok = row["compile_us"], row["compile_ok"]
        faster = "yes" if s_us < c_us else "**no**"
        c_text = (f"{c_us:.1f} ({100 * floor / c_us:.0f}%) | {e_us:.1f} | {seam_kernels} | {row['compile_kernels']} "
                  f"| {seam_abs:.3g} ({seam_rel:.1e}){'' if seam_ok else ' MISMATCH'} "
                  f"| {row['compile_max_abs']:.3g} ({row['compile_max_rel']:.1e}){'' if c_ok else ' MISMATCH'} "
                  f"| {faster} | {seam['events_us']:.1f} | {row['compile_events_us']:.1f} |")
    else:
        compile_state = "- (off)" if no_compile else "FAILED"
        c_text = (f"{compile_state} | {e_us:.1f} | {seam_kernels} | - | {seam_abs:.3g} ({seam_rel:.1e})"
                  f"{'' if seam_ok else ' MISMATCH'} | - | - | {seam['events_us']:.1f} | - |")
    return f"| {kind} | {m} x {n} | {floor:.1f} | {s_us:.1f}{s_mark} ({100 * floor / s_us:.0f}%) | {c_text}"


def bench_row(args, modules, work, rate, path, kind, m, n, failures):
    """One fusion: inputs made and written, seam run and checked against eager, eager and torch.compile
    timed; prints its table row and returns its raw row, or None when seam fails (recorded in `failures`)."""
    np, torch, torch_functions = modules
    label = f"{kind} {m}x{n}"
    row_dir = os.path.join(work, f"{kind}_{m}x{n}")
    in_dir, out_dir = os.path.join(row_dir, "in"), os.path.join(row_dir, "out")
    os.makedirs(in_dir)
    os.makedirs(out_dir)
    fn = torch_functions.FUNCTIONS[kind]
    sets = [torch_functions.make_inputs(kind, m, n, 1000 + s) for s in range(3)]
    for name, t in sets[0].items():
        np.save(os.path.join(in_dir, name + ".npy"), to_npy(torch, t))
    row = {"file": path, "kind": kind, "M": m, "N": n}
    try:
        seam = run_seam(args, path, in_dir, out_dir, rate)
    except RuntimeError as e:
        failures.append(f"{label}: {e}")
        print(f"| {kind} | {m} x {n} | seam failed: {str(e).splitlines()[0][:120]} |", flush=True)
        shutil.rmtree(row_dir)
        return None
    input_names = [t["name"] for t in seam["inputs"]]
    if input_names != list(sets[0]):
        raise SystemExit(f"{path}: inputs {input_names}, torch_functions.make_inputs gives {list(sets[0])}")
    out_names = [t["name"] for t in seam["outputs"]]
    out_dtypes = [t["type"].split("[")[0] for t in seam["outputs"]]

    def calls_of(f, sets=sets):  # one zero-argument call per input set
        return [lambda s=s: f(*s.values()) for s in sets]

    reference = list(calls_of(fn)[0]())
    if len(reference) != len(out_names):
        raise SystemExit(f"{path}: {len(out_names)} outputs, the PyTorch function returns {len(reference)}")
    seam_outputs = [from_npy(np, torch, os.path.join(out_dir, f"{name}.npy"), d == "bf16")
                    for name, d in zip(out_names, out_dtypes)]
    seam_ok, seam_abs, seam_rel = compare(torch, seam_outputs, reference, out_dtypes)
    if not seam_ok:
        failures.append(f"{label}: seam's outputs differ from eager (max abs {seam_abs:.3g}, rel {seam_rel:.3g})")
    e_us, e_kernels, e_events = time_torch(torch, calls_of(fn), args.iterations)
    row.update(seam=seam, eager_us=e_us, eager_kernels=e_kernels, eager_events_us=e_events, seam_ok=seam_ok,
               seam_max_abs=seam_abs, seam_max_rel=seam_rel)
    if not args.no_compile:
        compiled = time_compiled(torch, fn, calls_of, reference, out_dtypes, args.iterations, label, failures)
        if compiled is not None:
            row.update(compiled)
    print(table_line(kind, m, n, row, args.no_compile), flush=True)
    del sets, calls_of, reference, seam_outputs
    torch.cuda.empty_cache()
    shutil.rmtree(row_dir)
    return row


def main():
    args = parse_args()
    paths = glob.glob(os.path.join(args.sweep or os.path.join(HERE, "reductions"), "*.seam"))
    rows = select(rows_of(paths), args.only, args.one_per_kind)
    if not rows:
        raise SystemExit("no fusion files selected")
    if args.list:
        for path, kind, m, n in rows:
            print(f"{kind} {m} {n} {path}")
        return 0

    import numpy as np
    import torch  # only on the GPU machine; the rest of seam never needs it
    import torch_functions

    torch.manual_seed(0)
    rate = copy_rate(torch)
    gpu = torch.cuda.get_device_name()
    print(f"device: {gpu}, torch {torch.__version__}, copy rate {rate / 1e12:.2f} TB/s (2 GiB device-to-device); "
          f"kernel us = summed kernel durations per call (seam: CUPTI, torch: torch.profiler), median of "
          f"{args.iterations} calls over 3 input sets\n", flush=True)
    print_table_header()
    failures, results = [], []
    work = tempfile.mkdtemp(prefix="seam_reductions_")
    started = time.perf_counter()
    for path, kind, m, n in rows:
        row = bench_row(args, (np, torch, torch_functions), work, rate, path, kind, m, n, failures)
        if row is None:
            continue
        results.append(row)
        if args.json_out:  # after every row, so that a run cut by a timeout keeps what it measured
            with open(args.json_out, "w") as f:
                json.dump({"device": gpu, "torch": torch.__version__, "copy_rate": rate, "rows": results}, f, indent=1)
    shutil.rmtree(work, ignore_errors=True)
    print(f"\n{len(results)} of {len(rows)} fusions in {time.perf_counter() - started:.0f} s", flush=True)
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
