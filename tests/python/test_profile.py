"""The fusion profiler: fd.execute(inputs, profile=True) / fd.profile() (nvFuser's legacy API) and
PythonProfiler / get_fusion_profile (nvfuser_direct), on CPU tensors (the host backend's clock) and, with a
GPU, on CUDA tensors (CUPTI's kernel records, else CUDA events)."""

import pytest
import torch

import seam
from seam import DataType, FusionDefinition
from seam import profile as profiler
from seam.direct import FusionDefinition as DirectDefinition


def _add_then_sum(fd, inputs):
    t0 = fd.from_pytorch(inputs[0])
    t1 = fd.from_pytorch(inputs[1])
    total = fd.ops.sum(fd.ops.add(t0, t1), dim=-1)
    fd.add_output(fd.ops.exp(fd.ops.add(t0, t1)))
    fd.add_output(total)


def _defined(inputs, cls=FusionDefinition):
    with cls() as fd:
        _add_then_sum(fd, inputs)
    return fd


def _expected_timing(device):
    return ("host",) if device == "cpu" else ("cupti", "events")


def test_profile_has_a_kernel_profile_per_step_timed_by_the_backends_clock(device):
    inputs = [torch.randn(6, 40, device=device), torch.randn(6, 40, device=device)]
    fd = _defined(inputs)
    out = fd.execute(inputs, profile=True)
    torch.testing.assert_close(out[0], torch.exp(inputs[0] + inputs[1]))
    torch.testing.assert_close(out[1], (inputs[0] + inputs[1]).sum(-1))
    prof = fd.profile()
    assert isinstance(prof, profiler.FusionProfile)
    assert prof.fusion_id == fd.id() >= 0
    assert prof.timing in _expected_timing(device)
    exe = fd._last.executable()
    assert prof.segments == exe.num_kernels() >= 1
    assert len(prof.kernel_profiles) >= prof.segments
    assert prof.kernel_time_ms == pytest.approx(sum(k.time_ms for k in prof.kernel_profiles))
    assert prof.host_time_ms > 0
    assert prof.input_bytes == 2 * 6 * 40 * 4 and prof.output_bytes == (6 * 40 + 6) * 4
    assert prof.compile_time_ms > 0  # this execute compiled the fusion
    for k in prof.kernel_profiles:
        assert k.name and k.name in exe.cuda_source()
        assert k.scheduler in ("pointwise", "rows")
        assert 0 <= k.segment_id < prof.segments
        assert k.launched and k.time_ms > 0
        assert k.grid_str.startswith("[") and k.block_str.startswith("[")
        assert k.timing == prof.timing
    if device == "cpu":
        assert prof.cuda_evt_time_ms == 0 and prof.percentage_peak_bandwidth == 0
        assert all(k.event_time_ms == -1 and k.gpu_kernels == -1 and k.device == -1 for k in prof.kernel_profiles)
    else:
        assert prof.cuda_evt_time_ms > 0
        assert all(k.event_time_ms > 0 and k.device == torch.cuda.current_device() for k in prof.kernel_profiles)
        if prof.timing == "cupti":
            assert prof.timing_note == ""
            # the GPU's own durations exclude the launch start-up that events bracket (events resolve
            # about half a microsecond)
            assert all(k.gpu_kernels == 1 for k in prof.kernel_profiles)
            assert all(k.time_ms <= k.event_time_ms + 1e-3 for k in prof.kernel_profiles)
        else:
            assert prof.timing_note  # why not CUPTI
    # a second profiled execute compiles nothing
    fd.execute(inputs, profile=True)
    assert fd.profile() is not prof and fd.profile().compile_time_ms == 0


def test_library_steps_are_non_codegen_kernels_of_the_profile(device):
    inputs = [torch.randn(2, 4, 16, device=device), torch.randn(2, 4, 16, device=device),
              torch.randn(16, 16, device=device)]

    class Linear(FusionDefinition):
        def definition(self):
            t0, t1, w = (self.from_pytorch(x) for x in inputs)
            self.add_output(self.ops.add(self.ops.linear(t0, w), t1))

    fd = Linear()
    out, = fd.execute(inputs, profile=True)
    torch.testing.assert_close(out, torch.nn.functional.linear(inputs[0], inputs[2]) + inputs[1],
                               rtol=1e-4, atol=1e-4)
    prof = fd.profile()
    library = [k for k in prof.kernel_profiles if k.scheduler == "library"]
    assert len(library) == 1
    assert library[0].name == ("linear on the host" if device == "cpu" else "linear by cuBLASLt")
    assert library[0].grid_str == "" and library[0].registers == -1
    assert library[0].time_ms > 0
    generated = [k for k in prof.kernel_profiles if k.scheduler != "library"]
    assert generated and all(k.name for k in generated)
    if prof.timing == "cupti":
        assert library[0].gpu_kernels >= 1


def test_profile_before_any_profiled_execute_is_a_value_error():
    inputs = [torch.randn(3, 4), torch.randn(3, 4)]
    fd = _defined(inputs)
    with pytest.raises(ValueError, match="has not been executed; call fd.execute"):
        fd.profile()
    fd.execute(inputs)
    with pytest.raises(ValueError, match="executed without profiling"):
        fd.profile()
    fd.execute(inputs, profile=True)
    first = fd.profile()
    fd.execute(inputs)  # an unprofiled execute keeps the last profile
    assert fd.profile() is first


def test_profiling_a_definition_that_launches_nothing_says_so():
    x = torch.randn(3, 4)
    with FusionDefinition() as fd:
        t = fd.from_pytorch(x)
        fd.add_output(fd.ops.reshape(t, [12]))  # a view of the input: nothing runs
    with pytest.raises(RuntimeError, match="launches no kernel for these inputs"):
        fd.execute([x], profile=True)
    with FusionDefinition() as fd:
        s = fd.define_scalar(dtype=DataType.Double)
        fd.add_output(fd.ops.mul(s, s))
    with pytest.raises(RuntimeError, match="nothing to profile"):
        fd.execute([2.0], profile=True)
    out, = fd.execute([2.0])  # without profile=True it runs
    assert out.item() == 4.0


def test_profile_with_captured_debug_output_and_scalar_inputs():
    x = torch.randn(5, 7)
    with FusionDefinition() as fd:
        t = fd.from_pytorch(x)
        s = fd.define_scalar(dtype=DataType.Double)
        fd.add_output(fd.ops.mul(t, s))
    out, = fd.execute([x, 3.0], profile=True, capture_debug_output=True)
    torch.testing.assert_close(out, x * 3.0)
    assert fd.profile().kernel_profiles and fd.profile().timing == "host"


def test_python_profiler_profiles_every_execute_inside_it(device):
    inputs = [torch.randn(4, 9, device=device), torch.randn(4, 9, device=device)]
    fd = _defined(inputs, DirectDefinition)
    profiler.reset_profiler()
    with pytest.raises(ValueError, match="no fusion was profiled"):
        profiler.get_fusion_profile()
    fd.execute(inputs)  # outside a profiler: nothing recorded
    with pytest.raises(ValueError):
        profiler.get_fusion_profile()
    with profiler.PythonProfiler() as prof:
        out = fd.execute(inputs)
        assert prof.profile is profiler.get_fusion_profile()
    torch.testing.assert_close(out[1], (inputs[0] + inputs[1]).sum(-1))
    assert prof.profile.segments == fd.fusion._definition._last.executable().num_kernels()
    assert len(prof.profile.kernel_profiles) >= 1 and prof.profile.timing in _expected_timing(device)
    assert prof.profile.fusion_id >= 0
    with profiler.PythonProfiler() as empty:
        pass
    with pytest.raises(ValueError, match="nothing was profiled"):
        empty.profile
    fd.execute(inputs)
    assert profiler.get_fusion_profile() is prof.profile  # not profiled after the context closed
    profiler.reset_profiler()


def test_nvfuser_direct_exports_the_profiler():
    import nvfuser_direct

    assert nvfuser_direct.PythonProfiler is profiler.PythonProfiler
    assert nvfuser_direct.get_fusion_profile is profiler.get_fusion_profile
    assert nvfuser_direct.reset_profiler is profiler.reset_profiler
    assert seam.FusionDefinition.profile is FusionDefinition.profile
