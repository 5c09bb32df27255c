"""Where a training step's GPU time goes, per mode (hf_models.py --breakdown): the kernel time by class
(seam's kernels by kind, matrix products, attention, device copies, Triton, other PyTorch kernels), kernels
and copies per step, host time above GPU time, and for every seam step its bytes, time and share of the
device's copy rate with the region it came from.

Two sources: torch.profiler's Chrome trace over a few steps (every kernel, memcpy and memset of every
mode, seam's included), and one step under seam's own profiler (python/seam/profile.py: per step of a
region, CUPTI time and the bytes it reads and writes), each region execute labelled with its graph and
region. The parsing and the aggregation are plain functions of those records, tested on CPU with made-up
ones (tests/python/test_step_breakdown.py); only `profile_torch_steps`, `profile_seam_step` and
`copy_rate_gbs` need a GPU."""

import json
import re

# Kernel names -> class, first match wins. seam's generated kernels are seam_<kind>_<hash>; its library
# steps (cuBLASLt) appear under cuBLAS's own kernel names, which count as products like eager's.
_SEAM_KERNEL = re.compile(r"^seam_([a-z0-9]+?)_[0-9a-f]{8,}")
_CLASSES = (
    ("attention", re.compile(r"sdpa|fmha|flash|attention|_efficient_attention|cudnn_generated_fort_native",
                             re.I)),
    ("matmul", re.compile(r"nvjet|gemm|cutlass|cublas|sm\d+_xmma|ampere_|hopper_|s\d+gemm|matmul", re.I)),
    ("copy", re.compile(r"^Memcpy|^Memset|direct_copy_kernel|copy_kernel|CatArrayBatchedCopy", re.I)),
    ("triton", re.compile(r"^triton_")),
)
_COPY_CATEGORIES = ("gpu_memcpy", "gpu_memset")
_KERNEL_CATEGORIES = ("kernel",) + _COPY_CATEGORIES


def classify(name):
    """The class of a GPU activity's name: seam:<kind>, matmul, attention, copy, triton or pytorch."""
    found = _SEAM_KERNEL.match(name)
    if found:
        return f"seam:{found.group(1)}"
    for label, pattern in _CLASSES:
        if pattern.search(name):
            return label
    return "pytorch"


def gpu_activities(trace):
    """(name, category, duration in ms) of every kernel, memcpy and memset of a Chrome trace (the dict
    torch.profiler's export_chrome_trace writes)."""
    events = trace.get("traceEvents", trace) if isinstance(trace, dict) else trace
    out = []
    for e in events:
        if not isinstance(e, dict) or e.get("ph") != "X" or e.get("cat") not in _KERNEL_CATEGORIES:
            continue
        out.append((str(e.get("name", "")), e["cat"], float(e.get("dur", 0.0)) / 1e3))
    return out


class StepClasses:
    """Per-step kernel time and count by class, from the GPU activities of `steps` steps."""

    def __init__(self, activities, steps, wall_ms_per_step=None):
        if steps <= 0:
            raise ValueError("steps must be positive")
        self.steps = steps
        self.by_class = {}  # class -> [ms per step, count per step]
        copies_ms = copies = 0.0
        for name, category, ms in activities:
            label = "copy" if category in _COPY_CATEGORIES else classify(name)
            entry = self.by_class.setdefault(label, [0.0, 0.0])
            entry[0] += ms / steps
            entry[1] += 1 / steps
            if label == "copy":
                copies_ms += ms / steps
                copies += 1 / steps
        self.gpu_ms = sum(ms for ms, _ in self.by_class.values())
        self.kernels = sum(n for _, n in self.by_class.values())
        self.copies, self.copies_ms = copies, copies_ms
        self.wall_ms = wall_ms_per_step
        # The step's wall time not covered by GPU work: launches, Python, synchronizations.
        self.host_above_gpu_ms = None if wall_ms_per_step is None else max(0.0, wall_ms_per_step - self.gpu_ms)

    def rows(self):
        """(class, ms per step, kernels per step), longest first; seam's kinds together after `seam`."""
        return sorted(((label, ms, n) for label, (ms, n) in self.by_class.items()), key=lambda r: -r[1])

    def as_dict(self):
        return {"steps": self.steps, "gpu_ms": self.gpu_ms, "kernels": self.kernels, "copies": self.copies,
                "copies_ms": self.copies_ms, "wall_ms": self.wall_ms, "host_above_gpu_ms": self.host_above_gpu_ms,
                "classes": {label: {"ms": ms, "kernels": n} for label, ms, n in self.rows()}}


class SeamStep:
    """One step seam ran inside a region: a generated kernel or a library call."""

    __slots__ = ("region", "name", "kind", "time_ms", "bytes", "grid", "block", "registers")

    def __init__(self, region, name, kind, time_ms, nbytes, grid="", block="", registers=-1):
        self.region, self.name, self.kind, self.time_ms, self.bytes = region, name, kind, time_ms, nbytes
        self.grid, self.block, self.registers = grid, block, registers

    def copy_rate_share(self, copy_gbs):
        """This step's bytes over its time, as a share of the copy rate (1.0: as fast as a copy)."""
        if self.time_ms <= 0 or copy_gbs <= 0:
            return 0.0
        return self.bytes / (self.time_ms * 1e-3) / (copy_gbs * 1e9)


def seam_steps(labelled_profiles):
    """SeamSteps from (region label, FusionProfile) pairs: every launched step of each profile."""
    out = []
    for region, profile in labelled_profiles:
        for k in profile.kernel_profiles:
            if not getattr(k, "launched", True):
                continue
            out.append(SeamStep(region, k.name, k.scheduler, k.time_ms, k.input_bytes + k.output_bytes,
                                k.grid_str, k.block_str, k.registers))
    return out


def seam_kinds(steps, copy_gbs):
    """kind -> (ms, count, bytes, share of the copy rate over all its steps)."""
    kinds = {}
    for s in steps:
        ms, n, b = kinds.get(s.kind, (0.0, 0, 0))
        kinds[s.kind] = (ms + s.time_ms, n + 1, b + s.bytes)
    return {k: (ms, n, b, (b / (ms * 1e-3) / (copy_gbs * 1e9)) if ms > 0 and copy_gbs > 0 else 0.0)
            for k, (ms, n, b) in kinds.items()}


def format_breakdown(title, classes, steps=None, copy_gbs=None, top=None):
    """The report of one mode, as lines."""
    lines = [f"## {title}"]
    wall = f", wall {classes.wall_ms:.2f} ms/step, host above GPU {classes.host_above_gpu_ms:.2f} ms/step" \
        if classes.wall_ms is not None else ""
    lines.append(f"  GPU kernel time {classes.gpu_ms:.2f} ms/step{wall}")
    lines.append(f"  kernels {classes.kernels:.0f}/step, device copies {classes.copies:.0f}/step "
                 f"({classes.copies_ms:.2f} ms)")
    lines.append(f"  {'class':<16}{'ms/step':>9}{'kernels':>9}")
    for label, ms, n in classes.rows():
        lines.append(f"  {label:<16}{ms:>9.2f}{n:>9.0f}")
    if steps:
        rate = copy_gbs or 0.0
        lines.append(f"  seam's steps, one training step under seam's profiler (copy rate {rate:.0f} GB/s):")
        for kind, (ms, n, b, share) in sorted(seam_kinds(steps, rate).items(), key=lambda kv: -kv[1][0]):
            lines.append(f"    {kind:<12}{ms:>9.2f} ms {n:>5} steps {b / 1e9:>8.2f} GB  {100 * share:5.1f}% of copy rate")
        lines.append(f"    {'ms':>8} {'kind':<10}{'MB':>10}{'GB/s':>8}{'%copy':>7}  region / kernel")
        ordered = sorted(steps, key=lambda s: -s.time_ms)
        for s in ordered[:top] if top else ordered:
            gbs = s.bytes / (s.time_ms * 1e-3) / 1e9 if s.time_ms > 0 else 0.0
            shape = f" grid {s.grid} block {s.block} reg {s.registers}" if s.grid else ""
            lines.append(f"    {s.time_ms:>8.3f} {s.kind:<10}{s.bytes / 1e6:>10.1f}{gbs:>8.0f}"
                         f"{100 * s.copy_rate_share(rate):>6.1f}%  {s.region} / {s.name}{shape}")
    return lines


# --- collection on a GPU --------------------------------------------------------------------------

def profile_torch_steps(torch, step, steps, trace_path):
    """torch.profiler's GPU activities over `steps` calls of `step` (after it ran warm)."""
    from torch.profiler import ProfilerActivity, profile

    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
    prof.export_chrome_trace(trace_path)
    with open(trace_path) as f:
        return gpu_activities(json.load(f))


def profile_seam_step(torch, step):
    """One call of `step` with every seam region execute profiled by seam's profiler: (label, profile)."""
    from seam import profile as seam_profile
    from seam.torch_backend import runtime

    labelled = []
    original = runtime.SeamRegion._run

    def profiled(region, translation, args):
        with seam_profile.PythonProfiler() as prof:
            result = original(region, translation, args)
        try:
            labelled.append((f"{region.graph_label}/{region.region_name}", prof.profile))
        except ValueError:  # nothing launched
            pass
        return result

    runtime.SeamRegion._run = profiled
    try:
        step()
        torch.cuda.synchronize()
    finally:
        runtime.SeamRegion._run = original
    return labelled


def copy_rate_gbs(torch, mib=1024, repeats=10):
    """The device's copy rate (bytes read + written per second) from a large device-to-device copy."""
    src = torch.empty(mib * 2 ** 20, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    dst.copy_(src)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(repeats):
        dst.copy_(src)
    end.record()
    end.synchronize()
    seconds = start.elapsed_time(end) / 1e3 / repeats
    return 2 * src.numel() / seconds / 1e9
