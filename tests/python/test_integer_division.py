"""nvFuser's division ops: `div` is true division when an operand is floating and C's integer division
(toward zero, torch.div(rounding_mode="trunc")) of two integers; `truediv` always divides as floats;
`/` on handles is `div`, as in nvFuser's frontend, and there is no `//`."""

import pytest
import torch

from conftest import close, make
from seam import DataType, FusionDefinition

INTS = [torch.int32, torch.int64]
DT = {torch.float32: DataType.Float, torch.float64: DataType.Double, torch.int32: DataType.Int32,
      torch.int64: DataType.Int, torch.bool: DataType.Bool, torch.float16: DataType.Half}


def define(fd, x):
    return fd.define_tensor([-1] * x.dim(), [True] * x.dim(), dtype=DT[x.dtype])


def trunc(a, b):
    return torch.div(a, b, rounding_mode="trunc")


@pytest.mark.parametrize("dtype", INTS)
def test_div_of_integers_truncates_toward_zero(dtype, device):
    a = torch.tensor([7, -7, 7, -7, 0, 6, 100, -100, 1, -1], dtype=dtype)
    b = torch.tensor([2, 2, -2, -2, 5, -3, 7, 7, 3, -3], dtype=dtype)
    x, y = make((5, 9), dtype, low=-50, high=50, seed=1), make((5, 9), dtype, low=1, high=9, seed=2)
    with FusionDefinition() as fd:
        ta, tb, tx, ty = (define(fd, t) for t in (a, b, x, y))
        fd.add_output(fd.ops.div(ta, tb))
        fd.add_output(fd.ops.div(tx, ty))
        fd.add_output(fd.ops.div(fd.ops.neg(tx), ty))
        fd.add_output(fd.ops.div(tx, -4))   # a Python int divisor
        fd.add_output(fd.ops.div(-45, ty))  # a Python int dividend
    outs = fd.execute([t.to(device) for t in (a, b, x, y)])
    close(outs[0], trunc(a, b))
    close(outs[1], trunc(x, y))
    close(outs[2], trunc(-x, y))
    close(outs[3], trunc(x, -4))
    close(outs[4], trunc(torch.full_like(y, -45), y))


@pytest.mark.parametrize("dtype", INTS)
def test_div_of_integers_by_zero_gives_minus_one_and_by_minus_one_wraps(dtype, device):
    """x / 0 is -1, every bit set, what NVIDIA GPUs' integer division gives (torch on CUDA tensors and
    nvFuser agree; torch raises on CPU); INT_MIN / -1 is the wrapping negation, INT_MIN (torch 1.13's CPU
    kernel dies of SIGFPE on it)."""
    lo, hi = torch.iinfo(dtype).min, torch.iinfo(dtype).max
    a = torch.tensor([7, -7, 0, lo, lo, hi, 5, lo], dtype=dtype)
    b = torch.tensor([0, 0, 0, 0, -1, -1, -1, 2], dtype=dtype)
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.div(define(fd, a), define(fd, b)))
    out = fd.execute([a.to(device), b.to(device)])[0]
    close(out, torch.tensor([-1, -1, -1, -1, lo, -hi, -5, lo // 2], dtype=dtype))


def test_div_promotes_integers_like_torch(device):
    a = torch.tensor([-9, 9, 17], dtype=torch.int32)
    b = torch.tensor([4, -4, 5], dtype=torch.int64)
    flags = torch.tensor([True, False, True])
    with FusionDefinition() as fd:
        ta, tb, tf = define(fd, a), define(fd, b), define(fd, flags)
        fd.add_output(fd.ops.div(ta, tb))     # i32 / i64: i64
        fd.add_output(fd.ops.div(ta, 2))      # a Python int keeps the tensor's i32
        fd.add_output(fd.ops.div(tf, ta))     # a bool operand divides as the other's dtype
        fd.add_output(fd.ops.div(ta, 2.0))    # a float operand: true division, Float
    outs = fd.execute([a.to(device), b.to(device), flags.to(device)])
    close(outs[0], trunc(a.long(), b))
    close(outs[1], trunc(a, 2))
    close(outs[2], trunc(flags.int(), a))
    close(outs[3], a / 2.0)


def test_div_of_two_bools_is_refused():
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1], dtype=DataType.Bool)
        fd.add_output(fd.ops.div(t, t))
    with pytest.raises(ValueError, match="two Bool operands"):
        fd.execute([torch.tensor([True, False])])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16])
def test_div_of_floats_is_true_division(dtype, device):
    a, b = make((4, 5), dtype, seed=3), make((4, 5), dtype, low=0.5, high=3, seed=4)
    with FusionDefinition() as fd:
        ta, tb = define(fd, a), define(fd, b)
        fd.add_output(fd.ops.div(ta, tb))
        fd.add_output(fd.ops.div(ta, 3))  # an int divisor of a float tensor: true division
    outs = fd.execute([a.to(device), b.to(device)])
    wide = (lambda t: t.float()) if dtype == torch.float16 else (lambda t: t)  # Half math gives Float
    close(outs[0], wide(a) / wide(b))
    close(outs[1], wide(a) / 3)


@pytest.mark.parametrize("dtype", INTS)
def test_truediv_of_integers_is_float(dtype, device):
    a = torch.tensor([7, -7, 1, 0, 9], dtype=dtype)
    b = torch.tensor([2, 2, 3, 5, -4], dtype=dtype)
    with FusionDefinition() as fd:
        ta, tb = define(fd, a), define(fd, b)
        fd.add_output(fd.ops.truediv(ta, tb))
        fd.add_output(fd.ops.truediv(ta, 2))
    outs = fd.execute([a.to(device), b.to(device)])
    close(outs[0], torch.true_divide(a, b))
    close(outs[1], torch.true_divide(a, 2))


def test_slash_on_handles_is_nvfusers_div(device):
    a = torch.tensor([7, -7, 9], dtype=torch.int64)
    x = torch.tensor([7.0, -7.0, 9.0])
    with FusionDefinition() as fd:
        ta, tx = define(fd, a), define(fd, x)
        fd.add_output(ta / 2)    # integers: truncating
        fd.add_output(-15 / ta)  # __rtruediv__
        fd.add_output(tx / 2)    # floats: true division
        fd.add_output(ta % -4)   # nvFuser's mod: the dividend's sign
    outs = fd.execute([a.to(device), x.to(device)])
    close(outs[0], trunc(a, 2))
    close(outs[1], trunc(torch.full_like(a, -15), a))
    close(outs[2], x / 2)
    close(outs[3], torch.fmod(a, -4))
    assert "fd.ops.div(" in repr(fd) and "fd.ops.mod(" in repr(fd)


def test_floor_division_operator_is_refused():
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1], dtype=DataType.Int)
        with pytest.raises(TypeError, match="no `//`"):
            t // 2
        with pytest.raises(TypeError, match="no `//`"):
            2 // t


def test_div_of_integer_scalars(device):
    """Scalars: constants fold in Python with the IR's semantics (the extent -7 / 2 = -3 shapes the
    reshape), run-time scalar inputs divide in the kernel."""
    x = torch.arange(12, dtype=torch.float32)
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1], [True])
        s = fd.define_scalar(None, dtype=DataType.Int)
        rows = fd.ops.neg(fd.ops.div(fd.define_scalar(-7), fd.define_scalar(2)))  # 3
        fd.add_output(fd.ops.reshape(t, [rows, -1]))
        fd.add_output(fd.ops.mul(t, fd.ops.div(s, fd.define_scalar(-4))))  # s / -4 at run time
    out0, out1 = fd.execute([x.to(device), 9])
    close(out0, x.reshape(3, 4))
    close(out1, x * -2)
    out1 = fd.execute([x.to(device), -9])[1]
    close(out1, x * 2)
