"""Behaviours that scripts written for nvFuser rely on: layouts asked with stride_order, expanded inputs of a
static extent, compute_contiguity, outputs aliased to inputs, definition-time errors in nvFuser's words,
debug_output, extents, and the parts seam does not have (user schedules, per-segment definitions), which
raise naming themselves."""

import pytest
import torch

from conftest import close, make, on_device
from seam import DataType, FusionDefinition, compute_contiguity


def test_stride_order_output_that_views_an_input_gets_the_layout(device):
    x = make((2, 3, 4), device=device)
    with FusionDefinition() as fd:
        t = fd.from_pytorch(x)
        fd.add_output(fd.ops.broadcast(t, [False, True, False, False]), stride_order=[0, 1, 2, 3])
        fd.add_output(fd.ops.permute(t, [2, 0, 1]))
    out, view = fd.execute([x])
    assert torch.equal(out, x.unsqueeze(1))
    # dim 0 innermost, dim 3 outermost, dense; the extent-1 dim has the stride of a dense layout
    assert out.stride() == (1, 2, 2, 6)
    assert out.data_ptr() != x.data_ptr()
    # without a stride_order a view stays a view of the input
    assert view.data_ptr() == x.data_ptr() and torch.equal(view, x.permute(2, 0, 1))


def test_identity_stride_order_on_a_transposed_input(device):
    x = make((3, 4), device=device).t()
    with FusionDefinition() as fd:
        t = fd.from_pytorch(x)
        fd.add_output(t, stride_order=[1, 0])
        fd.add_output(t)
    dense, same = fd.execute([x])
    assert dense.stride() == (3, 1) and torch.equal(dense, x)
    assert same.stride() == x.stride() and same.data_ptr() == x.data_ptr()


def test_contiguity_none_with_a_static_extent_is_an_expanded_input(device):
    base = make((2, 1, 3), device=device)
    x = base.expand(2, 16, 3)
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, 16, 3], contiguity=[None, True, True], dtype=DataType.Float,
                             stride_order=[1, 2, 0])
        fd.add_output(fd.ops.mul(t, 3.0))
    out, = fd.execute([x])
    close(out, x * 3.0)
    with pytest.raises(ValueError, match="declared with static extent 16, got 8"):
        fd.execute([base.expand(2, 8, 3)])
    with pytest.raises(ValueError, match="expanded broadcast needs stride 0"):
        fd.execute([on_device(make((16, 2, 3)), device).permute(1, 0, 2)])


def test_compute_contiguity_is_in_logical_order():
    # a row-major tensor: all contiguous
    assert compute_contiguity([3, 5, 7], [35, 7, 1]) == [True, True, True]
    # a transposed tensor: compared with the next logical dim, not the next in memory
    assert compute_contiguity([4, 6], [1, 4]) == [False, False]
    # extent-1 and stride-0 dims are broadcast (None) and skipped when checking the dims outside them
    assert compute_contiguity([2, 1, 5, 3], [15, 99, 0, 1]) == [False, None, None, True]
    assert compute_contiguity([2, 1, 5, 3], [3, 99, 0, 1]) == [True, None, None, True]
    # a gap in the innermost dim
    assert compute_contiguity([4, 3], [6, 2]) == [True, False]
    with pytest.raises(ValueError, match="2 sizes and 1 strides"):
        compute_contiguity([1, 2], [1])


def test_output_aliased_into_an_input_is_returned_as_that_input(device):
    x = make((1, 2, 3, 4), device=device)
    expected = torch.where(x > 0, x, torch.zeros_like(x))
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True] * 4, dtype=DataType.Float)
        r = fd.ops.where(fd.ops.gt(t, 0.0), t, 0.0)
        fd.add_output(r)
        fd.add_output(r, alias_input=t)
        fd.add_output(r)
        fd.add_output(t)
    outs = fd.execute([x])
    assert len(outs) == 3
    for out in outs:
        assert out.data_ptr() == x.data_ptr()
    close(x, expected)


def test_is_cpu_tensor_of_rank_above_zero_fails_at_definition():
    for _ in range(2):
        with pytest.raises(ValueError, match="CPU non-scalar tensor is not supported!"):
            with FusionDefinition() as fd:
                fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=True)


def test_reproducer_prints_the_stride_order_of_from_pytorch_inputs():
    x = make((4, 4))
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.mul(fd.from_pytorch(x), fd.from_pytorch(x.t())))
    text = repr(fd)
    assert ("T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, "
            "is_cpu=False, stride_order=[1, 0])") in text
    assert "stride_order=[0, 1]" in text
    close(fd.execute([x, x.t()])[0], x * x.t())


def test_debug_output_and_extents(monkeypatch):
    monkeypatch.setenv("SEAM_PYTHON_DUMP", "fusion_ir")
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, 1, -1], contiguity=[True, None, True])
        u = fd.define_tensor(shape=[5, -1], contiguity=[True, True])
        s = fd.define_scalar()
        fd.add_output(fd.ops.div(fd.ops.add(t, u), s))
    assert fd.extents() == [-1, -2, -3]
    inputs = [make((2, 1, 7)), make((5, 7)), 2.0]
    fd.execute(inputs)
    assert fd.debug_output() is None
    fd.execute([make((3, 1, 7)), make((5, 7)), 2.0], capture_debug_output=True)  # compiles: dumps
    assert "div" in fd.debug_output()
    fd.execute(inputs, capture_debug_output=True)  # cached: nothing dumped
    assert fd.debug_output() == ""


def test_what_seam_does_not_have_raises_naming_it():
    x = make((2, 5))
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.sum(fd.from_pytorch(x), [1]))
    with pytest.raises(NotImplementedError, match="fd.sched.split: seam schedules every kernel itself"):
        fd.sched.split(0, 1, 2)
    with pytest.raises(NotImplementedError, match="segment_index_space_maps"):
        fd.segment_index_space_maps
    close(fd.execute([x])[0], x.sum(1))
    with pytest.raises(RuntimeError, match="Attempting to add to a completed definition!"):
        fd.ops.relu(fd.from_pytorch(x))


@pytest.mark.parametrize("starts,ends,strides,message", [
    ([0, 0, 0], [4, 4, 4], [1, 1, 1], "Number of tensor dimensions does not match slice dimensions! "
                                      "Tensor-dims: 2 Slice-dims: 3"),
    ([0, 0], [4, 4, 4], [1, 1], "Slice indexing attribute dimensions don't match! Start Indices: 2 End "
                                "Indices: 3"),
    ([0, 0], [4, 4], [1, 1, 1], "Slice start_indices and strides don't match! Start Indices: 2 Strides: 3"),
])
def test_slice_lengths_are_checked_when_defined(starts, ends, strides, message):
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, -1], contiguity=[True, True])
        with pytest.raises(ValueError, match=message):
            fd.ops.slice(t, start_indices=starts, end_indices=ends, strides=strides)


def test_python_values_of_scalar_ops_that_shape_a_fusion():
    from seam.lowering import PY_SCALAR
    fmod, remainder, signbit = PY_SCALAR["fmod"], PY_SCALAR["remainder"], PY_SCALAR["signbit"]
    # integer fmod is exact (no float round trip) and keeps the dividend's sign, as torch.fmod
    big = 2**62 + 7
    assert fmod(big, 10) == big % 10 and fmod(-big, 10) == -(big % 10)
    assert [fmod(a, b) for a, b in ((-7, 2), (7, -2), (7.5, 2.0))] == [-1, 1, 1.5]
    assert [remainder(a, b) for a, b in ((-7, 2), (7, -2))] == [1, -1]
    assert signbit(-0.0) and not signbit(0.0) and signbit(-3) and not signbit(2)
    assert PY_SCALAR["round"](2.5) == 2 and PY_SCALAR["trunc"](-2.7) == -2 and PY_SCALAR["floor"](-2.5) == -3


def test_reshape_to_extents_computed_from_a_scalar_input(device):
    x = make((4, 8, 6), device=device)
    with FusionDefinition() as fd:
        rows = fd.define_scalar(None, dtype=DataType.Int)
        t = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True])
        cols = fd.ops.mul(192, fd.ops.reciprocal(fd.ops.mul(1, rows)))
        fd.add_output(fd.ops.sum(fd.ops.reshape(t, new_shape=fd.define_vector([rows, cols])), dims=[1]))
    close(fd.execute([32, x])[0], x.reshape(32, 6).sum(1))
    close(fd.execute([16, x])[0], x.reshape(16, 12).sum(1))


def test_disabling_the_matmul_library_call_leaves_no_scheduler():
    """matmul_expr_eval off asks for a generated matmul kernel, which seam does not have; other options
    and fusions without products are unaffected."""
    a, b = make((6, 4)), make((4, 5))
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.matmul(fd.from_pytorch(a), fd.from_pytorch(b)))
    with pytest.raises(RuntimeError, match="Can not find a scheduler to schedule fusion segment: matmul"):
        fd.execute([a, b], _enable_options=["fuse_matmul"], _disable_options=["matmul_expr_eval"])
    close(fd.execute([a, b], _enable_options=["fuse_matmul"])[0], a @ b)
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.relu(fd.from_pytorch(a)))
    close(fd.execute([a], _disable_options=["matmul_expr_eval"])[0], a.relu())
