"""bench/step_breakdown.py's parsing and aggregation (hf_models.py --breakdown) on made-up records: a
Chrome trace as torch.profiler writes it, and FusionProfile-like objects as seam's profiler gives them."""

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))

import step_breakdown as sb  # noqa: E402


def _event(name, dur_us, cat="kernel", ph="X"):
    return {"ph": ph, "cat": cat, "name": name, "dur": dur_us, "ts": 0, "pid": 0, "tid": 7}


@pytest.mark.parametrize("name,label", [
    ("seam_rows_14d5e3673d1d731d", "seam:rows"),
    ("seam_pointwise_c8ebb3c6c9553d26", "seam:pointwise"),
    ("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT", "matmul"),
    ("sm75_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x32_stage3_warpsize2x2x1_tensor16x8x8_align1",
     "matmul"),
    ("cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_26_64x64x128_1x4x1_cga1x1", "attention"),
    ("void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128>>", "attention"),
    ("void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)",
     "copy"),
    ("triton_poi_fused__unsafe_view_mul_silu_8", "triton"),
    ("void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float>", "pytorch"),
    ("seam_not_a_hash", "pytorch"),
])
def test_kernel_names_are_classified(name, label):
    assert sb.classify(name) == label


def test_a_trace_aggregates_per_step():
    trace = {"traceEvents": [
        _event("seam_rows_14d5e3673d1d731d", 600.0),
        _event("seam_rows_14d5e3673d1d731d", 700.0),
        _event("seam_pointwise_c8ebb3c6c9553d26", 1300.0),
        _event("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT", 5000.0),
        _event("Memcpy DtoD (Device -> Device)", 30.0, cat="gpu_memcpy"),
        _event("Memset (Device)", 10.0, cat="gpu_memset"),
        _event("cudnn_generated_fort_native_sdpa_sm90_flash_fprop", 400.0),
        _event("aten::mm", 9000.0, cat="cpu_op"),  # host events are not GPU time
        _event("seam_rows_14d5e3673d1d731d", 5.0, ph="i"),  # not a complete event
        {"name": "process_name", "ph": "M"},
    ]}
    activities = sb.gpu_activities(trace)
    assert len(activities) == 7
    classes = sb.StepClasses(activities, steps=2, wall_ms_per_step=4.5)
    rows = {label: (ms, n) for label, ms, n in classes.rows()}
    assert rows["matmul"] == pytest.approx((2.5, 0.5))
    assert rows["seam:rows"] == pytest.approx((0.65, 1.0))
    assert rows["seam:pointwise"] == pytest.approx((0.65, 0.5))
    assert rows["copy"] == pytest.approx((0.02, 1.0))
    assert rows["attention"] == pytest.approx((0.2, 0.5))
    assert classes.gpu_ms == pytest.approx(4.02)
    assert classes.kernels == pytest.approx(3.5)
    assert classes.copies == pytest.approx(1.0) and classes.copies_ms == pytest.approx(0.02)
    assert classes.host_above_gpu_ms == pytest.approx(0.48)
    assert [r[0] for r in classes.rows()][0] == "matmul"  # longest first
    assert sb.StepClasses(activities, steps=2, wall_ms_per_step=1.0).host_above_gpu_ms == 0.0
    with pytest.raises(ValueError):
        sb.StepClasses(activities, steps=0)


class _Kernel:
    def __init__(self, name, scheduler, time_ms, read, written, launched=True):
        self.name, self.scheduler, self.time_ms = name, scheduler, time_ms
        self.input_bytes, self.output_bytes, self.launched = read, written, launched
        self.grid_str, self.block_str, self.registers = "[64, 1, 1]", "[256, 1, 1]", 32


class _Profile:
    def __init__(self, *kernels):
        self.kernel_profiles = list(kernels)


def test_seam_steps_report_bytes_time_and_share_of_the_copy_rate():
    profiles = [
        ("graph1/fused_0", _Profile(_Kernel("seam_rows_aa00aa00aa00aa00", "rows", 0.5, 600e6, 300e6),
                                    _Kernel("matmul by cuBLASLt", "library", 1.0, 100e6, 50e6),
                                    _Kernel("seam_pointwise_bb00bb00bb00bb00", "pointwise", 0.0, 0, 0,
                                            launched=False))),
        ("graph2/fused_3", _Profile(_Kernel("seam_rows_cc00cc00cc00cc00", "rows", 1.0, 1000e6, 500e6))),
    ]
    steps = sb.seam_steps(profiles)
    assert [(s.region, s.kind, s.bytes) for s in steps] == [
        ("graph1/fused_0", "rows", 900e6), ("graph1/fused_0", "library", 150e6), ("graph2/fused_3", "rows", 1500e6)]
    # 900 MB in 0.5 ms is 1.8 TB/s: 60% of a 3 TB/s copy
    assert steps[0].copy_rate_share(3000.0) == pytest.approx(0.6)
    kinds = sb.seam_kinds(steps, 3000.0)
    assert kinds["rows"][:3] == (1.5, 2, 2400e6)
    assert kinds["rows"][3] == pytest.approx(2400e6 / 1.5e-3 / 3e12)
    lines = sb.format_breakdown("llama seam", sb.StepClasses([("seam_rows_cc00cc00cc00cc00", "kernel", 1.0)], 1, 1.2),
                                steps, 3000.0)
    text = "\n".join(lines)
    assert "host above GPU 0.20 ms/step" in text
    assert "graph2/fused_3 / seam_rows_cc00cc00cc00cc00" in text
    assert " 50.0%" in text  # the second rows step: 1500 MB in 1 ms of a 3 TB/s copy
    # longest first
    assert text.index("graph2/fused_3") < text.index("graph1/fused_0 / seam_rows")
