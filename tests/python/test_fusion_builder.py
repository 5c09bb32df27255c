"""FusionBuilder (python/seam/fusion_builder.py): the core's fusion of concrete inputs, compiled to one
specialization that runs on tensors of the declared signature."""

import pytest
import torch

from seam.dtypes import DataType
from seam.fusion_builder import FusionBuilder

from conftest import close, make, on_device


def _rms_scale(x):
    fusion = FusionBuilder()
    t = fusion.define_tensor(x.shape, x.stride(), x.dtype, x.device)
    ops = fusion.ops
    f = ops.cast(t, DataType.Float)
    mean = ops.mean(ops.mul(f, f), [1], keepdim=True)
    fusion.add_output(ops.cast(ops.mul(f, ops.rsqrt(ops.add(mean, 1e-6))), DataType.BFloat16))
    return fusion


def test_a_built_fusion_runs_on_inputs_of_its_signature(device):
    x = make([6, 40], torch.bfloat16, device)
    out, = _rms_scale(x).compile().run([x])
    f = x.float()
    close(out, (f * torch.rsqrt((f * f).mean(1, keepdim=True) + 1e-6)).to(torch.bfloat16))


def test_identical_fusions_share_one_specialization_and_other_layouts_do_not(device):
    x = make([6, 40], torch.bfloat16, device)
    first, second = _rms_scale(x), _rms_scale(x)
    assert first.text() == second.text() and first.compile() is second.compile()
    assert first.id() == second.id() is not None
    transposed = on_device(make([40, 6], torch.bfloat16), device).t()
    other = _rms_scale(transposed)
    assert "strides=[1, 6]" in other.text() and other.compile() is not first.compile()
    out, = other.compile().run([transposed])
    reference, = first.compile().run([transposed.contiguous()])
    close(out, reference)


def test_constants_outputs_in_a_stride_order_and_inputs_written_in_place():
    x = torch.randn(3, 5)
    fusion = FusionBuilder()
    t = fusion.define_tensor(x.shape, x.stride(), x.dtype, x.device)
    two = fusion.define_scalar(2.0)
    doubled = fusion.ops.mul(t, two)
    fusion.add_output(doubled, stride_order=[0, 1])  # dim 1 outermost: a transposed allocation
    fusion.add_output(fusion.ops.add(t, 1.0), alias_input=t)
    before = x.clone()
    out, = fusion.compile().run([x])  # an output written into an input is not returned
    close(out, before * 2)
    assert out.stride() == (1, 3)
    close(x, before + 1)


def test_a_0dim_cpu_tensor_joins_the_fusion_of_the_other_inputs(device):
    x, s = make([4, 4], torch.float32, device), torch.tensor(3.0)
    fusion = FusionBuilder()
    t = fusion.define_tensor(x.shape, x.stride(), x.dtype, x.device)
    u = fusion.define_tensor(s.shape, s.stride(), s.dtype, s.device)
    fusion.add_output(fusion.ops.mul(t, u))
    spec = fusion.compile()
    assert spec.device == x.device  # the CPU scalar is copied to the GPU per run
    out, = spec.run([x, s])
    assert out.device == x.device
    close(out, x * 3.0)


def test_a_compiled_builder_takes_no_more_records_and_handles_stay_in_their_fusion():
    x = torch.randn(2, 3)
    fusion = FusionBuilder()
    t = fusion.define_tensor(x.shape, x.stride(), x.dtype, x.device)
    fusion.add_output(fusion.ops.exp(t))
    fusion.compile()
    with pytest.raises(RuntimeError, match="compiled"):
        fusion.ops.exp(t)
    other = FusionBuilder()
    with pytest.raises(ValueError, match="belongs to another FusionBuilder"):
        other.ops.exp(t)


def test_inputs_on_two_devices_or_of_mismatched_rank_are_refused():
    fusion = FusionBuilder()
    with pytest.raises(ValueError, match="2 sizes and 1 strides"):
        fusion.define_tensor([2, 3], [1], torch.float32, "cpu")
    with pytest.raises(NotImplementedError):
        fusion.define_tensor([2], [1], torch.complex64, "cpu")
