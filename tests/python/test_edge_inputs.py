"""Edge-case inputs a new user tries: views PyTorch marks with a negative bit, re-entering a completed
definition, an empty reduction list, and arguments that must be refused with a message naming the op,
the argument and the problem (at definition time where it can be known then)."""

import pytest
import torch

from conftest import make
from seam import DataType, FusionDefinition


def add_one():
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float)
        fd.add_output(fd.ops.add(t, 1.0))
    return fd


def test_negative_view_is_resolved():
    z = torch.tensor([1 + 2j, 3 - 4j], dtype=torch.complex64)
    imag = z.conj().imag  # a view of z's memory with PyTorch's negative bit set
    assert imag.is_neg()
    fd = add_one()
    out, = fd.execute([imag])
    assert torch.equal(out, imag + 1.0)  # [-1, 5]
    out, = fd.execute([imag])            # the cached signature too
    assert torch.equal(out, torch.tensor([-1.0, 5.0]))
    out, = fd.execute([imag.resolve_neg()])
    assert torch.equal(out, torch.tensor([-1.0, 5.0]))


def test_negative_view_cannot_be_written_in_place():
    z = torch.tensor([1 + 2j, 3 - 4j], dtype=torch.complex64)
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float)
        fd.add_output(fd.ops.add(t, 1.0), alias_input=t)
    with pytest.raises(ValueError, match=r"input 0 \(T0\).*negative bit.*alias_input"):
        fd.execute([z.conj().imag])


def test_reentering_a_completed_definition_is_refused():
    fd = add_one()
    with pytest.raises(RuntimeError, match="already defined"):
        with fd:
            pass
    out, = fd.execute([torch.zeros(2)])  # the definition is intact
    assert torch.equal(out, torch.ones(2))


@pytest.mark.parametrize("op", ["sum", "prod", "max", "min", "mean", "var", "var_mean"])
def test_empty_reduction_axes_are_refused(op):
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
        with pytest.raises(ValueError, match=rf"fd.ops.{op}: .*empty"):
            getattr(fd.ops, op)(t, [])
        fd.add_output(t)


@pytest.mark.parametrize("value", [2 ** 64, -(2 ** 63) - 1, 10 ** 30])
def test_int_beyond_64_bits_as_constant(value):
    with FusionDefinition() as fd:
        with pytest.raises(ValueError, match="does not fit 64 bits"):
            fd.define_scalar(value, dtype=DataType.Int)
        t = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int)
        with pytest.raises(ValueError, match=r"fd.ops.add: argument rhs.*does not fit 64 bits"):
            fd.ops.add(t, value)
        with pytest.raises(ValueError, match=r"fd.ops.pad: argument pad_widths.*does not fit 64 bits"):
            fd.ops.pad(t, [value, 0])
        with pytest.raises(ValueError, match=r"fd.ops.full: argument shape.*does not fit 64 bits"):
            fd.ops.full([value], 0, DataType.Int)
        fd.add_output(t)


def test_int_beyond_64_bits_as_scalar_input():
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int)
        s = fd.define_scalar(None, dtype=DataType.Int)
        fd.add_output(fd.ops.add(t, s))
    with pytest.raises(ValueError, match=r"input 1 \(S1.*does not fit 64 bits"):
        fd.execute([torch.ones(2, dtype=torch.int64), 2 ** 64])


def test_pow_of_negative_scalar_by_half_is_nan():
    with FusionDefinition() as fd:
        s = fd.define_scalar(-4.0, dtype=DataType.Double)
        t = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Double)
        fd.add_output(fd.ops.add(t, fd.ops.pow(s, 0.5)))
    out, = fd.execute([torch.zeros(2, dtype=torch.float64)])
    assert torch.isnan(out).all()


def test_nested_list_input_is_not_flattened():
    fd = add_one()
    with pytest.raises(TypeError, match=r"input 0 \(T0\).*torch.Tensor.*got a list"):
        fd.execute([[torch.ones(2), torch.ones(2)]])


@pytest.mark.parametrize("operand", [torch.ones(3), [1.0, 2.0]], ids=["tensor", "list"])
def test_foreign_operand_is_refused_at_definition(operand):
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float)
        with pytest.raises(TypeError, match=r"fd.ops.add: argument rhs"):
            fd.ops.add(t, operand)
        fd.add_output(t)


def test_full_with_extent_computed_by_modulo_zero():
    with FusionDefinition() as fd:
        n = fd.define_scalar(None, dtype=DataType.Int)
        fd.add_output(fd.ops.full([fd.ops.add(fd.ops.fmod(n, 0), 2)], 1.0, DataType.Float))
    with pytest.raises(ValueError, match=r"fmod.*by zero") as info:
        fd.execute([5])
    assert "tensor op" not in str(info.value)


def test_sparse_tensor_is_refused():
    fd = add_one()
    sparse = torch.ones(3).to_sparse()
    with pytest.raises(ValueError, match=r"input 0 \(T0\).*sparse.*to_dense"):
        fd.execute([sparse])
    fd.execute([torch.ones(3)])  # after a cached signature too
    with pytest.raises(ValueError, match=r"input 0 \(T0\).*sparse"):
        fd.execute([sparse])


def test_defects_keep_working_inputs_working():
    fd = add_one()
    out, = fd.execute([make((4,))])
    assert out.shape == (4,)
