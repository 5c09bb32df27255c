"""nvFuser's fusion profiler on seam: `fd.execute(inputs, profile=True)` then `fd.profile()` (the legacy
API), or `with PythonProfiler() as prof: fd.execute(inputs)` then `prof.profile` (nvfuser_direct). A
profile has a KernelProfile per step seam launched (generated kernels and library calls, which nvFuser
calls non-codegen kernels), with its time by the best clock there is: CUPTI's kernel records on the GPU,
CUDA events when CUPTI does not load, the host's clock on the host backend (`timing` says which).
docs/PYTHON.md describes the fields."""

import threading

_lock = threading.Lock()
_active = 0          # PythonProfiler contexts open in the process: every execute is profiled
_last = None         # the last FusionProfile any execute made (get_fusion_profile)


def active():
    return _active > 0


class KernelProfile:
    """One step of a profiled run: the fields of nvFuser's KernelProfile, and seam's `timing`,
    `launched`, `event_time_ms` and `gpu_kernels`."""

    def __init__(self, step, timing, device, stream, peak_bandwidth_gbs):
        self.name = step.name
        self.segment_id = step.segment
        self.device = device
        self.stream = stream
        self.correlation_id = -1  # seam attributes kernels to steps by waiting for each step, not by correlation
        self.compile_time_ms = 0.0  # seam compiles a fusion's kernels together: FusionProfile.compile_time_ms
        self.time_ms = step.time_ms
        self.timing = timing
        self.launched = step.launched
        self.event_time_ms = step.event_time_ms
        self.gpu_kernels = step.gpu_kernels
        self.input_bytes = step.input_bytes
        self.output_bytes = step.output_bytes
        self.effective_bandwidth_gbs = _bandwidth(step.input_bytes + step.output_bytes, step.time_ms)
        self.percentage_peak_bandwidth = _percentage(self.effective_bandwidth_gbs, peak_bandwidth_gbs)
        self.grid_str = f"[{step.blocks}, 1, 1]" if step.blocks else ""
        self.block_str = f"[{step.block}, 1, 1]" if step.block else ""
        self.cluster_str = ""
        self.shared_mem_str = ""
        self.registers = step.registers
        self.scheduler = step.scheduler

    def __repr__(self):
        return (f"KernelProfile(name={self.name!r}, segment_id={self.segment_id}, scheduler={self.scheduler!r}, "
                f"time_ms={self.time_ms:.6f} ({self.timing}), grid={self.grid_str or '-'}, "
                f"block={self.block_str or '-'}, registers={self.registers}, input_bytes={self.input_bytes}, "
                f"output_bytes={self.output_bytes})")


class FusionProfile:
    """A profiled execute: the fields of nvFuser's FusionProfile, and seam's `timing` ("cupti",
    "events" or "host") and `timing_note` (why not CUPTI)."""

    verbose = False

    def __init__(self, raw, fusion_id, compile_time_ms, device, stream):
        self.fusion_id = fusion_id
        self.segments = raw.segments
        self.timing = raw.timing
        self.timing_note = raw.timing_note
        self.cuda_evt_time_ms = raw.event_time_ms if raw.event_time_ms >= 0 else 0.0
        self.host_time_ms = raw.host_time_ms
        self.compile_time_ms = compile_time_ms
        self.kernel_time_ms = raw.kernel_time_ms
        self.input_bytes = raw.input_bytes
        self.output_bytes = raw.output_bytes
        self.effective_bandwidth_gbs = _bandwidth(raw.input_bytes + raw.output_bytes, raw.kernel_time_ms)
        self.percentage_peak_bandwidth = _percentage(self.effective_bandwidth_gbs, raw.peak_bandwidth_gbs)
        self.kernel_profiles = [KernelProfile(s, raw.timing, device, stream, raw.peak_bandwidth_gbs)
                                for s in raw.steps]

    @property
    def percentage_peak_bandwith(self):  # nvFuser's binding spells it so
        return self.percentage_peak_bandwidth

    def __repr__(self):
        lines = [f"FusionProfile(fusion_id={self.fusion_id}, segments={self.segments}, timing={self.timing!r}"
                 + (f" ({self.timing_note})" if self.timing_note else "") + ")",
                 f"  host_time_ms={self.host_time_ms:.6f} kernel_time_ms={self.kernel_time_ms:.6f} "
                 f"cuda_evt_time_ms={self.cuda_evt_time_ms:.6f} compile_time_ms={self.compile_time_ms:.3f} "
                 f"effective_bandwidth_gbs={self.effective_bandwidth_gbs:.3f}"]
        lines += [f"  {k!r}" for k in self.kernel_profiles]
        return "\n".join(lines)


def _bandwidth(nbytes, ms):
    return nbytes / (ms * 1e6) if ms > 0 else 0.0


def _percentage(gbs, peak):
    return 100.0 * gbs / peak if peak > 0 else 0.0


def run_profiled(spec, flat, fusion_id, explicit, compiled):
    """(outputs, FusionProfile or None) of `spec` (runner.Specialization) run on `flat` with every step timed;
    the profile is the process's last (get_fusion_profile, PythonProfiler). `compiled`: whether the profile
    reports the specialization's compile time. A run that launches nothing has nothing to time: refused
    when `explicit` (execute(profile=True)) asked for it, else run unprofiled (inside a PythonProfiler)."""
    if not spec.launches():
        if explicit:
            raise RuntimeError("execute(profile=True): this definition launches no kernel for these inputs "
                               "(its outputs are scalars, inputs or views of inputs), so there is nothing to "
                               "profile; execute it without profile=True")
        return spec.run(flat), None
    measured = []
    results = spec.run(flat, profile_into=measured)
    raw, stream = measured[0]
    compile_ms = spec.compile_time_ms if compiled else 0.0
    device = spec.device.index if spec.device.type == "cuda" else -1
    profile = FusionProfile(raw, fusion_id, compile_ms, device, stream)
    record(profile)
    return results, profile


def record(profile):
    global _last
    with _lock:
        _last = profile


def get_fusion_profile():
    """The profile of the last profiled execute in the process (nvfuser_direct's get_fusion_profile)."""
    if _last is None:
        raise ValueError("no fusion was profiled: run fd.execute(...) inside `with PythonProfiler():` (or "
                         "fd.execute(..., profile=True)) first")
    return _last


def reset_profiler():
    global _last
    with _lock:
        _last = None


class PythonProfiler:
    """nvfuser_direct's profiler context: every execute inside it is profiled; `profile` is the last
    one's FusionProfile. `auto_scheduled=False` is nvFuser's mode for manual_execute, which seam does not
    have: it profiles executes the same way."""

    def __init__(self, auto_scheduled=True):
        self.auto_scheduled = auto_scheduled
        self._open = False
        self._before = None   # the process's last profile when the context opened
        self._profile = None  # the last profile made inside it, once closed

    def __enter__(self):
        global _active
        with _lock:
            _active += 1
            self._open = True
            self._before = _last
        return self

    def __exit__(self, exc_type, exc, tb):
        global _active
        with _lock:
            _active -= 1
            self._open = False
            self._profile = _last if _last is not self._before else None
        return False

    @property
    def profile(self):
        profile = (_last if _last is not self._before else None) if self._open else self._profile
        if profile is None:
            raise ValueError("PythonProfiler.profile: no execute inside this profiler launched a kernel, so "
                             "nothing was profiled")
        return profile
