"""Every way an execute() input can disagree with its definition raises before anything runs, naming
the input and what differs; misused ops raise at definition or specialization with seam's message."""

import re
import threading

import pytest
import torch

from conftest import close, make
import seam
from seam import DataType, FusionDefinition


def simple(shape=(-1, -1), contiguity=(True, True), dtype=DataType.Float, stride_order=None):
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=list(shape), contiguity=list(contiguity), dtype=dtype,
                             stride_order=stride_order or [])
        fd.add_output(fd.ops.exp(t))
    return fd


def test_input_count():
    with pytest.raises(ValueError, match=r"takes 1 inputs \(input 0 \(T0\)\), got 2"):
        simple().execute([make((2, 2)), make((2, 2))])


def test_input_rank():
    with pytest.raises(ValueError, match=r"input 0 \(T0\): expected a tensor of rank 2, got rank 3"):
        simple().execute([make((2, 2, 2))])


def test_input_dtype_must_match_exactly():
    with pytest.raises(ValueError, match=r"input 0 \(T0\): expected dtype torch.float32 \(DataType.Float\), "
                                         r"got torch.float64"):
        simple().execute([make((2, 2), torch.float64)])


def test_static_extent():
    with pytest.raises(ValueError, match="dim 1 is declared with static extent 4, got 5"):
        simple(shape=(-1, 4)).execute([make((2, 5))])


def test_broadcast_extent():
    with pytest.raises(ValueError, match=r"dim 0 is declared broadcast \(extent 1\), got extent 3"):
        simple(shape=(1, -1), contiguity=(None, True)).execute([make((3, 5))])


def test_strides_against_contiguity():
    x = make((4, 6))[:, ::2]
    with pytest.raises(ValueError, match="stride mismatch with contiguity info: dim 1 must have stride 1"):
        simple().execute([x])
    y = make((6, 4)).t()
    with pytest.raises(ValueError, match="stride mismatch"):
        simple().execute([y])
    close(simple(stride_order=[0, 1]).execute([y])[0], y.exp())


def test_stride_zero_does_not_pass_as_contiguous():
    x = make((4, 1)).expand(4, 6)
    with pytest.raises(ValueError, match="stride mismatch"):
        simple().execute([x])


def test_expanded_declaration_needs_stride_zero():
    with pytest.raises(ValueError, match="needs stride 0"):
        simple(contiguity=(True, None)).execute([make((4, 6))])


def test_wrong_input_kinds():
    with pytest.raises(TypeError, match=r"Expected input 0, T0, to be an at::Tensor but got scalar 1.0 "
                                        r"\(input 0 \(T0\) must be a torch.Tensor\)"):
        simple().execute([1.0])
    with FusionDefinition() as fd:
        s = fd.define_scalar(None, dtype=DataType.Int)
        t = fd.define_tensor([-1], [True])
        fd.add_output(fd.ops.add(t, s))
    with pytest.raises(TypeError, match="input 0 .S0, a DataType.Int scalar. is an integer scalar, got the float"):
        fd.execute([1.5, make((3,))])
    with pytest.raises(TypeError, match="Expected input 0, S0, to be a scalar but got float tensor of rank 1"):
        fd.execute([make((3,)), make((3,))])
    with pytest.raises(TypeError, match="0-dim tensor"):
        fd.execute([make(()), make((3,))])
    with pytest.raises(TypeError, match=re.escape("Scalar value (2,1) is not compatible with the expected data "
                                                  "type: int64_t.")):
        fd.execute([2 + 1j, make((3,))])


def test_dtype_mismatch_in_nvfusers_words():
    with pytest.raises(ValueError, match="Expected input 0, T0, to be bound to a tensor of dtype float, but got "
                                         "a tensor of dtype __half"):
        simple().execute([make((2, 2), torch.float16)])


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU in torch")
def test_mixed_devices():
    with FusionDefinition() as fd:
        a = fd.define_tensor([-1], [True])
        b = fd.define_tensor([-1], [True])
        fd.add_output(fd.ops.add(a, b))
    with pytest.raises(ValueError, match="must be on one device"):
        fd.execute([make((3,)), make((3,)).cuda()])


def test_shape_errors_name_the_op():
    with FusionDefinition() as fd:
        a = fd.define_tensor([-1, -1], [True, True])
        fd.add_output(fd.ops.reshape(a, [5, -1]))
    with pytest.raises(ValueError, match=r"fd.ops.reshape\(T0, \[5, -1\]\): cannot reshape \[2, 3\] to \[5, -1\]"):
        fd.execute([make((2, 3))])
    with FusionDefinition() as fd:
        a = fd.define_tensor([-1, -1], [True, True])
        b = fd.define_tensor([-1, -1], [True, True])
        fd.add_output(fd.ops.add(a, b))
    with pytest.raises(ValueError, match="do not broadcast together"):
        fd.execute([make((2, 3)), make((3, 2))])
    with FusionDefinition() as fd:
        a = fd.define_tensor([-1, -1], [True, True])
        fd.add_output(fd.ops.matmul(a, a))
    with pytest.raises(seam.SeamError, match="matmul"):
        fd.execute([make((2, 3))])


def test_repeated_reduction_dims_and_negative_extents_are_refused():
    with FusionDefinition() as fd:
        a = fd.define_tensor([-1, -1], [True, True])
        fd.add_output(fd.ops.sum(a, dims=[1, -1]))
    with pytest.raises(ValueError, match=r"dim 1 appears multiple times in the list of dims \[1, -1\]"):
        fd.execute([make((2, 3))])
    with FusionDefinition() as fd:
        a = fd.define_tensor([-1], [True])
        fd.add_output(fd.ops.broadcast_in_dim(a, [-5, 3], [1]))
    with pytest.raises(ValueError, match=r"output extent -5 of dim 0 \(shape \[-5, 3\]\) is negative"):
        fd.execute([make((3,))])


def test_definition_time_errors():
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1], [True, True])
        with pytest.raises(TypeError, match="fd.ops.add"):
            fd.ops.add(t)
        with pytest.raises(ValueError, match="contiguity entries"):
            fd.define_tensor([-1, -1], [True])
        with pytest.raises(ValueError, match="stride_order"):
            fd.define_tensor([-1, -1], [True, True], stride_order=[0, 0])
        with pytest.raises(ValueError, match="not an input"):
            fd.add_output(fd.ops.exp(t), alias_input=fd.ops.exp(t))
    with pytest.raises(RuntimeError, match="complete"):
        fd.ops.exp(t)


def test_threads_execute_concurrently(device):
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1], [True, True])
        s = fd.define_scalar(None, dtype=DataType.Double)
        fd.add_output(fd.ops.mul(fd.ops.sin(t), s))
    shapes = [(3, 4), (5, 2), (3, 4), (7, 1)]
    errors = []

    def work(i):
        try:
            for k in range(5):
                x = make(shapes[(i + k) % len(shapes)], seed=i * 10 + k).to(device)
                close(fd.execute([x, float(k)])[0], torch.sin(x) * float(k))
        except Exception as e:  # reported below with its thread
            errors.append((i, repr(e)))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors


def test_threads_compile_different_definitions(device):
    """Several threads each define and compile their own fusion at the same time."""
    errors = []

    def work(i):
        try:
            with FusionDefinition() as fd:
                t = fd.define_tensor([-1], [True])
                fd.add_output(fd.ops.add(fd.ops.mul(t, float(i + 2)), float(i)))
            x = make((10 + i,), seed=i).to(device)
            close(fd.execute([x])[0], x * float(i + 2) + float(i))
        except Exception as e:  # reported below with its thread
            errors.append((i, repr(e)))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors


def test_validate():
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1], [True])
        fd.add_output(fd.ops.exp(t))
    x = make((5,))
    fd.validate([x], [torch.exp(x)])
    with pytest.raises(AssertionError):
        fd.validate([x], [torch.exp(x) + 1.0])
    fd.validate([x])  # against seam's reference interpreter


def test_validate_without_references_uses_the_interpreter():
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1], [True, True])
        s = fd.define_scalar(None, dtype=DataType.Double)
        fd.add_output(fd.ops.permute(fd.ops.mul(fd.ops.exp(t), s), [1, 0]))
        fd.add_output(fd.ops.sum(t, [0]))
        fd.add_output(fd.ops.add(t, 1.0), alias_input=t)
    x = make((3, 4))
    before = x.clone()
    permuted, total = fd._reference_outputs([x, 2.0], None)
    assert torch.equal(x, before)  # the reference writes no input
    close(permuted, (torch.exp(x) * 2.0).t())
    close(total, x.sum(0))
    outputs = fd.execute([x.clone(), 2.0])
    assert [o.stride() for o in outputs] == [permuted.stride(), total.stride()]
    fd.validate([x, 2.0])
    assert torch.equal(x, before + 1.0)  # the run itself did write the alias
