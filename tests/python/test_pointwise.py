"""Pointwise ops, casts and where against torch eager, with nvFuser's result dtypes (Half and BFloat16
math computes in and returns Float)."""

import math

import pytest
import torch

from conftest import close, make, on_device
from seam import DataType, FusionDefinition

FLOATS = [torch.float32, torch.float16, torch.bfloat16, torch.float64]
DT = {torch.float32: DataType.Float, torch.float16: DataType.Half, torch.bfloat16: DataType.BFloat16,
      torch.float64: DataType.Double, torch.int32: DataType.Int32, torch.int64: DataType.Int,
      torch.bool: DataType.Bool}


def nv_float(x):
    """nvFuser computes Half/BFloat16 math in Float."""
    return x.float() if x.dtype in (torch.float16, torch.bfloat16) else x


def run_unary(name, x, device):
    with FusionDefinition() as fd:
        t0 = fd.define_tensor(shape=[-1] * x.dim(), contiguity=[True] * x.dim(), dtype=DT[x.dtype])
        fd.add_output(getattr(fd.ops, name)(t0))
    return fd.execute([x.to(device)])[0]


UNARY_FLOAT = {
    "exp": torch.exp, "log": torch.log, "sqrt": torch.sqrt, "rsqrt": torch.rsqrt, "reciprocal": torch.reciprocal,
    "sin": torch.sin, "cos": torch.cos, "tanh": torch.tanh, "sigmoid": torch.sigmoid, "erf": torch.erf,
    "tan": torch.tan, "log2": torch.log2, "log10": torch.log10, "silu": torch.nn.functional.silu,
}


@pytest.mark.parametrize("name", sorted(UNARY_FLOAT))
@pytest.mark.parametrize("dtype", FLOATS)
def test_float_unary(name, dtype, device):
    positive = name in ("log", "sqrt", "rsqrt", "log2", "log10")
    x = make((5, 7), dtype, low=0.1 if positive else -1.5, high=1.5)
    out = run_unary(name, x, device)
    close(out, UNARY_FLOAT[name](nv_float(x)))


@pytest.mark.parametrize("dtype", [torch.int32, torch.int64])
def test_float_unary_of_integers_is_float(dtype, device):
    x = make((4, 3), dtype, low=1, high=9)
    close(run_unary("sqrt", x, device), torch.sqrt(x.float()))


@pytest.mark.parametrize("name,ref", [("neg", torch.neg), ("abs", torch.abs), ("relu", torch.relu)])
@pytest.mark.parametrize("dtype", FLOATS + [torch.int32, torch.int64])
def test_dtype_keeping_unary(name, ref, dtype, device):
    x = make((3, 6), dtype)
    # torch 1.13 has no CPU kernels for some Half ops: the reference computes in float and rounds back.
    expected = ref(x.float()).to(dtype) if dtype in (torch.float16, torch.bfloat16) else ref(x)
    close(run_unary(name, x, device), expected)


@pytest.mark.parametrize("name,ref", [("isnan", torch.isnan), ("isinf", torch.isinf), ("isfinite", torch.isfinite),
                                      ("isposinf", torch.isposinf), ("isneginf", torch.isneginf)])
def test_float_classification(name, ref, device):
    x = torch.tensor([[0.0, -1.5, math.inf], [-math.inf, math.nan, 3.0]])
    close(run_unary(name, x, device), ref(x))


def test_logical_not(device):
    x = make((4, 4), torch.bool)
    close(run_unary("logical_not", x, device), torch.logical_not(x))


def run_binary(name, a, b, device):
    with FusionDefinition() as fd:
        args = []
        for v in (a, b):
            if isinstance(v, torch.Tensor):
                args.append(fd.define_tensor(shape=[-1 if s != 1 else 1 for s in v.shape],
                                             contiguity=[True if s != 1 else None for s in v.shape],
                                             dtype=DT[v.dtype]))
            else:
                args.append(fd.define_scalar(v))
        fd.add_output(getattr(fd.ops, name)(*args))
    return fd.execute([v.to(device) for v in (a, b) if isinstance(v, torch.Tensor)])[0]


BINARY_ARITH = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "truediv": torch.true_divide,
                "maximum": torch.maximum, "minimum": torch.minimum, "pow": torch.pow}


@pytest.mark.parametrize("name", sorted(BINARY_ARITH))
@pytest.mark.parametrize("dtype", FLOATS)
def test_binary_arith(name, dtype, device):
    a = make((4, 5), dtype, low=0.5 if name == "pow" else None, seed=1)
    b = make((4, 5), dtype, seed=2)
    close(run_binary(name, a, b, device), BINARY_ARITH[name](nv_float(a), nv_float(b)))


@pytest.mark.parametrize("name", ["add", "sub", "mul", "maximum", "minimum"])
@pytest.mark.parametrize("dtype", [torch.int32, torch.int64])
def test_binary_integer(name, dtype, device):
    a, b = make((3, 8), dtype, seed=3), make((3, 8), dtype, seed=4)
    close(run_binary(name, a, b, device), BINARY_ARITH[name](a, b))


@pytest.mark.parametrize("name,ref", [("eq", torch.eq), ("ne", torch.ne), ("lt", torch.lt), ("le", torch.le),
                                      ("gt", torch.gt), ("ge", torch.ge)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.int64])
def test_comparisons(name, ref, dtype, device):
    a = make((6, 4), dtype, seed=5)
    b = a.clone()
    b[::2] = make((3, 4), dtype, seed=6)
    close(run_binary(name, a, b, device), ref(a, b))


@pytest.mark.parametrize("name,ref", [("logical_and", torch.logical_and), ("logical_or", torch.logical_or),
                                      ("bitwise_and", torch.logical_and), ("bitwise_or", torch.logical_or),
                                      ("bitwise_xor", torch.logical_xor)])
def test_logical(name, ref, device):
    a, b = make((5, 5), torch.bool, seed=7), make((5, 5), torch.bool, seed=8)
    close(run_binary(name, a, b, device), ref(a, b))


def test_broadcasting_pointwise(device):
    # [4,1] with [1,5] and [5]: NumPy broadcasting, as nvFuser broadcasts implicitly.
    a, b = make((4, 1), seed=9), make((1, 5), seed=10)
    close(run_binary("add", a, b, device), a + b)
    c = make((5,), seed=11)
    close(run_binary("mul", a, c, device), a * c)


@pytest.mark.parametrize("dtype", FLOATS + [torch.int32])
def test_tensor_scalar_promotion(dtype, device):
    # A Double scalar does not upcast a Float or BFloat16 tensor but does upcast an Int tensor.
    x = make((3, 3), dtype)
    out = run_binary("mul", x, 2.5, device)
    close(out, nv_float(x) * 2.5)
    out = run_binary("add", 3, x, device)
    close(out, 3 + nv_float(x))


def test_float_div(device):
    a, b = make((4,), seed=12), make((4,), low=0.5, high=2.0, seed=13)
    close(run_binary("div", a, b, device), a / b)


def test_operators_on_handles(device):
    x, y = make((3, 4), seed=14), make((3, 4), low=0.5, seed=15)
    with FusionDefinition() as fd:
        a = fd.define_tensor([-1, -1], [True, True])
        b = fd.define_tensor([-1, -1], [True, True])
        fd.add_output((a + b) * 2.0 - b / a)
        fd.add_output(-a)
        fd.add_output(abs(a) ** 2.0)
        fd.add_output((a < b) | (a >= 1.0))
        fd.add_output(3.0 - a)
    outs = fd.execute([x.to(device), y.to(device)])
    close(outs[0], (x + y) * 2.0 - y / x)
    close(outs[1], -x)
    close(outs[2], x.abs() ** 2.0)
    close(outs[3], (x < y) | (x >= 1.0))
    close(outs[4], 3.0 - x)


def test_ternary_ops(device):
    x, y, w = make((4, 6), seed=16), make((4, 6), seed=17), make((4, 6), low=0, high=1, seed=18)
    with FusionDefinition() as fd:
        a = fd.define_tensor([-1, -1], [True, True])
        b = fd.define_tensor([-1, -1], [True, True])
        c = fd.define_tensor([-1, -1], [True, True])
        lo, hi = fd.define_scalar(-0.5), fd.define_scalar(0.7)
        fd.add_output(fd.ops.where(fd.ops.gt(a, b), a, b))
        fd.add_output(fd.ops.lerp(a, b, c))
        fd.add_output(fd.ops.clamp(a, lo, hi))
        fd.add_output(fd.ops.threshold(a, fd.define_scalar(0.1), fd.define_scalar(-9.0)))
        fd.add_output(fd.ops.addcmul(a, b, c, fd.define_scalar(0.5)))
        fd.add_output(fd.ops.add_alpha(a, b, fd.define_scalar(2.0)))
        fd.add_output(fd.ops.sub_alpha(a, b, fd.define_scalar(3.0)))
    outs = fd.execute([t.to(device) for t in (x, y, w)])
    close(outs[0], torch.where(x > y, x, y))
    close(outs[1], torch.lerp(x, y, w))
    close(outs[2], torch.clamp(x, -0.5, 0.7))
    close(outs[3], torch.threshold(x, 0.1, -9.0))
    close(outs[4], torch.addcmul(x, y, w, value=0.5))
    close(outs[5], torch.add(x, y, alpha=2.0))
    close(outs[6], torch.sub(x, y, alpha=3.0))


@pytest.mark.parametrize("src", [torch.float32, torch.bfloat16, torch.float16, torch.int32, torch.int64, torch.bool,
                                 torch.float64])
@pytest.mark.parametrize("dst", [DataType.Float, DataType.BFloat16, DataType.Half, DataType.Int, DataType.Int32,
                                 DataType.Bool, DataType.Double])
def test_cast(src, dst, device):
    x = make((4, 4), src, low=-100 if src.is_floating_point else None, high=100 if src.is_floating_point else None)
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1], [True, True], dtype=DT[src])
        fd.add_output(fd.ops.cast(t, dtype=dst))
    torch_dst = {v: k for k, v in DT.items()}[dst]
    close(fd.execute([x.to(device)])[0], x.to(torch_dst))


def test_where_keeps_bfloat16(device):
    x = make((8,), torch.bfloat16)
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1], [True], dtype=DataType.BFloat16)
        zero = fd.define_scalar(0.0)
        fd.add_output(fd.ops.where(fd.ops.gt(t, zero), t, zero))
    close(fd.execute([x.to(device)])[0], torch.where(x > 0, x, torch.zeros((), dtype=torch.bfloat16)))


def test_empty_tensors(device):
    x = torch.empty((0, 5))
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1], [True, True])
        fd.add_output(fd.ops.exp(t) + 1.0)
        fd.add_output(fd.ops.sum(t, [0]))
    outs = fd.execute([x.to(device)])
    close(outs[0], torch.exp(x) + 1.0)
    close(outs[1], x.sum(0))


def _layouts(dtype=torch.float32):
    base = make((5, 6), dtype, seed=30)
    return {
        "transposed": (base.t(), dict(shape=[-1, -1], contiguity=[True, True], stride_order=[0, 1])),
        "sliced": (make((6, 10), dtype, seed=31)[:, ::2], dict(shape=[-1, -1], contiguity=[True, False])),
        "row_slice": (make((12, 5), dtype, seed=32)[::2], dict(shape=[-1, -1], contiguity=[False, True])),
        "expanded": (make((6, 1), dtype, seed=33).expand(6, 5), dict(shape=[-1, -1], contiguity=[True, None])),
        "broadcast": (make((1, 5), dtype, seed=34), dict(shape=[1, -1], contiguity=[None, True])),
        "any": (make((5, 12), dtype, seed=35).t()[::2], dict(shape=[-1, -1])),
    }


@pytest.mark.parametrize("layout", sorted(_layouts()))
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_strided_expanded_and_broadcast_inputs(layout, dtype, device):
    x, declaration = _layouts(dtype)[layout]
    y = make((6, 5), dtype, seed=36)
    with FusionDefinition() as fd:
        a = fd.define_tensor(dtype=DT[dtype], **declaration)
        b = fd.define_tensor([-1, -1], [True, True], dtype=DT[dtype])
        fd.add_output(fd.ops.cast(fd.ops.add(fd.ops.exp(a), b), DT[dtype]))
        fd.add_output(fd.ops.sum(a, [0]))
    outs = fd.execute([on_device(x, device), y.to(device)])
    close(outs[0], (torch.exp(x.float()) + y.float()).to(dtype))
    close(outs[1], x.float().sum(0).to(dtype) if dtype == torch.bfloat16 else x.sum(0))


def test_half_comparisons_compare_in_float(device):
    # bf16(0.1) is 0.10009765625: greater than the Double 0.1 in float, equal to it once rounded to bf16.
    x = torch.tensor([0.1, 0.2, -0.1], dtype=torch.bfloat16)
    out = run_binary("gt", x, 0.1, device)
    close(out, x.float() > 0.1)
    assert out.tolist() == [True, True, False]
