"""The math ops beyond the basic arithmetic (inverse and hyperbolic trigonometry, exp2/expm1/log1p,
erfc/erfinv/erfcinv/lgamma, rounding, sign, fmod/remainder, atan2, nextafter, shifts, gcd) against
torch eager, on ordinary and edge values, in every dtype nvFuser allows for them."""

import math

import numpy as np
import pytest
import torch

from conftest import close, make
from seam import DataType, FusionDefinition

FLOATS = [torch.float32, torch.float16, torch.bfloat16, torch.float64]
INTS = [torch.int32, torch.int64]
DT = {torch.float32: DataType.Float, torch.float16: DataType.Half, torch.bfloat16: DataType.BFloat16,
      torch.float64: DataType.Double, torch.int32: DataType.Int32, torch.int64: DataType.Int,
      torch.bool: DataType.Bool}
INF, NAN = math.inf, math.nan
EDGES = [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 0.5, -0.5, 2.5, -2.5, 1e-30, -1e-30, 3e38, 0.999, -0.999]


def nv_float(x):
    """nvFuser computes Half/BFloat16 math in (and returns) Float."""
    return x.float() if x.dtype in (torch.float16, torch.bfloat16) else x


def run(name, *operands, device="cpu", **kwargs):
    """fd.ops.<name> on tensor operands (Python numbers pass as constants)."""
    return run_many([(name, operands)], device)[0]


def run_many(calls, device):
    """One fusion of several ops (name, operands) with an output each: one compilation for many checks.
    Tensor operands become inputs (each once), Python numbers constants."""
    tensors = []
    for _, operands in calls:
        tensors += [x for x in operands if isinstance(x, torch.Tensor) and not any(x is t for t in tensors)]
    with FusionDefinition() as fd:
        handles = [fd.define_tensor([-1] * x.dim(), [True] * x.dim(), dtype=DT[x.dtype]) for x in tensors]
        for name, operands in calls:
            args = [handles[next(i for i, t in enumerate(tensors) if t is x)] if isinstance(x, torch.Tensor) else x
                    for x in operands]
            fd.add_output(getattr(fd.ops, name)(*args))
    return fd.execute([x.to(device) for x in tensors])


# name: (reference, low, high) of ordinary values inside the domain
FLOAT_UNARY = {
    "acos": (torch.acos, -1.0, 1.0), "asin": (torch.asin, -1.0, 1.0), "atan": (torch.atan, -4.0, 4.0),
    "acosh": (torch.acosh, 1.0, 6.0), "asinh": (torch.asinh, -4.0, 4.0), "atanh": (torch.atanh, -0.95, 0.95),
    "cosh": (torch.cosh, -4.0, 4.0), "sinh": (torch.sinh, -4.0, 4.0), "exp2": (torch.exp2, -8.0, 8.0),
    "expm1": (torch.expm1, -3.0, 3.0), "log1p": (torch.log1p, -0.9, 5.0), "erfc": (torch.erfc, -3.0, 3.0),
    "erfinv": (torch.erfinv, -0.999, 0.999), "lgamma": (torch.lgamma, -4.5, 8.0),
    # torch has no erfcinv: erfcinv(x) = erfinv(1 - x), computed in f64
    "erfcinv": (lambda x: torch.erfinv(1 - x.double()).to(x.dtype), 0.01, 1.99),
}


def reference(name, x):
    """torch's result computed in f64 and rounded (torch 1.13's f32 CPU kernels overflow in places, e.g.
    log1p(3e38) is inf); Half/BFloat16 give Float, as nvFuser computes them."""
    out_dtype = torch.float64 if x.dtype == torch.float64 else torch.float32
    return FLOAT_UNARY[name][0](x.double()).to(out_dtype)


@pytest.mark.parametrize("dtype", FLOATS)
def test_float_unary(dtype, device):
    names = sorted(FLOAT_UNARY)
    xs = [make((6, 7), dtype, low=FLOAT_UNARY[n][1], high=FLOAT_UNARY[n][2], seed=i) for i, n in enumerate(names)]
    outs = run_many([(n, (x,)) for n, x in zip(names, xs)], device)
    for n, x, out in zip(names, xs, outs):
        close(out, reference(n, x))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_float_unary_edges(dtype, device):
    values = EDGES + [1.5, -1.5, 7.0, -3.0, 1.9999, 1e-3]
    x = torch.tensor(values, dtype=dtype)
    # the reference erfinv(1 - x) is exact only away from 0 (test_erfinv_tails_are_accurate covers it)
    near_one = torch.tensor([v for v in values if not 0 < abs(v) < 0.1], dtype=dtype)
    names = sorted(FLOAT_UNARY)
    outs = run_many([(n, (near_one if n == "erfcinv" else x,)) for n in names], device)
    for n, out in zip(names, outs):
        close(out, reference(n, near_one if n == "erfcinv" else x))


@pytest.mark.parametrize("dtype", INTS)
def test_float_unary_of_integers_is_float(dtype, device):
    x = make((3, 5), dtype, low=-1, high=2)
    names = ["acos", "exp2", "lgamma", "erfinv"]
    for n, out in zip(names, run_many([(n, (x,)) for n in names], device)):
        close(out, FLOAT_UNARY[n][0](x.float()))


def within_ulps(ratio, x):
    """ratio = erfc(x) / target is 1 up to a few ulps of x, each worth 2x^2 ulps of erfc in the tail."""
    bound = 8 * 2.0 ** -52 * (1 + 2 * x * x)
    assert bool(((ratio - 1).abs() <= bound).all()), (ratio - 1, bound)


def test_erfinv_tails_are_accurate(device):
    """Near +-1 (erfinv) and near 0 and 2 (erfcinv) the results keep full f64 precision."""
    r = torch.tensor([1e-300, 1e-100, 1e-20, 1e-8, 0.01, 0.3], dtype=torch.float64)
    # torch's own f64 erfinv is off by up to 6e-5 near 1: check through erfc instead.
    y = torch.tensor([1 - 2.0 ** -52, -(1 - 2.0 ** -40), 0.75], dtype=torch.float64)
    tiny = torch.tensor([1e-310, -1e-20, 0.3], dtype=torch.float64)
    q = 2 - r[3:]  # rounded; 2 - q is exact
    x, x2, x2_mirror, xy, xt = [o.cpu() for o in run_many(
        [("erfcinv", (r,)), ("erfcinv", (q,)), ("erfcinv", (2 - q,)), ("erfinv", (y,)), ("erfinv", (tiny,))],
        device)]
    within_ulps(torch.special.erfc(x) / r, x)
    torch.testing.assert_close(x2, -x2_mirror, rtol=1e-14, atol=0)  # erfcinv(2 - r) = -erfcinv(r)
    within_ulps(torch.special.erfc(xy.abs()) / (1 - y.abs()), xy)
    assert xy[1] < 0
    close(xt, torch.erfinv(tiny))


ROUNDING = {"ceil": torch.ceil, "floor": torch.floor, "trunc": torch.trunc, "round": torch.round,
            "frac": torch.frac}
ROUNDING_VALUES = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, 2.7, -2.7, 1e20, -0.0, 0.0, INF, -INF, NAN, 3.0]


@pytest.mark.parametrize("dtype", FLOATS)
def test_rounding_keeps_the_dtype(dtype, device):
    x = torch.tensor(ROUNDING_VALUES, dtype=dtype)
    names = sorted(ROUNDING)
    for n, out in zip(names, run_many([(n, (x,)) for n in names], device)):
        # torch 1.13 lacks some Half CPU kernels: the reference rounds in f64 (exact) and converts back.
        close(out, ROUNDING[n](x.double()).to(dtype))


@pytest.mark.parametrize("dtype", INTS)
def test_rounding_integers_is_the_identity(dtype, device):
    x = torch.tensor([0, -7, 5, torch.iinfo(dtype).max, torch.iinfo(dtype).min], dtype=dtype)
    for out in run_many([(n, (x,)) for n in ["ceil", "floor", "trunc", "round"]], device):
        close(out, x)


def test_frac_of_integers_is_refused():
    with pytest.raises(Exception, match="frac"):
        run("frac", torch.tensor([1, 2]))


@pytest.mark.parametrize("dtype", FLOATS + INTS + [torch.bool])
def test_signbit_and_sign(dtype, device):
    if dtype == torch.bool:
        x = torch.tensor([True, False])
    elif dtype in INTS:
        x = torch.tensor([0, -1, 4, torch.iinfo(dtype).min, torch.iinfo(dtype).max], dtype=dtype)
    else:
        x = torch.tensor([0.0, -0.0, 2.5, -2.5, INF, -INF, NAN, -NAN], dtype=dtype)
    half = dtype in (torch.float16, torch.bfloat16)
    if dtype == torch.bool:
        close(run("sign", x, device=device), torch.sign(x))
        return
    signbit, sign = run_many([("signbit", (x,)), ("sign", (x,))], device)
    # a half NaN's sign as the device converts it to f32 (the GPU's conversion gives the canonical NaN)
    on_device = x.to(device)
    close(signbit, torch.signbit(on_device.float() if half else on_device).cpu())
    close(sign, torch.sign(x.float()).to(dtype) if half else torch.sign(x))  # 0 for NaN and -0, like nvFuser


DIVISION = {"fmod": torch.fmod, "mod": torch.fmod, "remainder": torch.remainder}


@pytest.mark.parametrize("dtype", FLOATS)
def test_division_remainders_of_floats(dtype, device):
    a = torch.tensor([5.5, -5.5, 5.5, -5.5, 0.0, -0.0, 3.0, INF, NAN, 7.0, 1e-30, -6.0], dtype=dtype)
    b = torch.tensor([2.0, 2.0, -2.0, -2.0, 3.0, 3.0, 0.0, 2.0, 2.0, INF, -1.0, 3.0], dtype=dtype)
    x = make((4, 6), dtype, low=-9, high=9)
    names = sorted(DIVISION)
    outs = run_many([(n, (a, b)) for n in names] + [(n, (x, 1.75)) for n in names], device)
    for n, out, ref in zip(names * 2, outs, [(a, b)] * 3 + [(x, 1.75)] * 3):
        close(out, DIVISION[n](nv_float(ref[0]), ref[1] if isinstance(ref[1], float) else nv_float(ref[1])))


@pytest.mark.parametrize("dtype", INTS)
def test_division_remainders_of_integers(dtype, device):
    lo, hi = torch.iinfo(dtype).min, torch.iinfo(dtype).max
    a = torch.tensor([7, -7, 7, -7, 0, 6, lo, lo, hi, 5, lo], dtype=dtype)
    b = torch.tensor([3, 3, -3, -3, 5, -3, 1, 7, lo, 1, hi], dtype=dtype)
    names = sorted(DIVISION)
    outs = run_many([(n, (a, b)) for n in names] + [(n, (a, -4)) for n in names], device)
    for n, out, rhs in zip(names * 2, outs, [b] * 3 + [-4] * 3):
        close(out, DIVISION[n](a, rhs))


@pytest.mark.parametrize("dtype", INTS)
def test_integer_division_by_zero_and_minus_one_give_zero(dtype, device):
    """seam's choice for x % 0: torch raises, CUDA leaves it undefined. INT_MIN % -1 is 0 (torch 1.13's
    CPU kernel dies of SIGFPE on it)."""
    lo = torch.iinfo(dtype).min
    a = torch.tensor([7, -7, 0, lo, lo, 5], dtype=dtype)
    b = torch.tensor([0, 0, 0, 0, -1, -1], dtype=dtype)
    for out in run_many([(n, (a, b)) for n in sorted(DIVISION)], device):
        close(out, torch.zeros(6, dtype=dtype))


def test_mixed_remainder_promotes(device):
    a = torch.tensor([7, -7, 9], dtype=torch.int32)
    b = torch.tensor([2.5, 2.5, -4.0])
    close(run("remainder", a, b, device=device), torch.remainder(a, b))


def test_atan2_of_integers_is_float(device):
    a, b = make((3, 4), torch.int32, seed=1), make((3, 4), torch.int64, seed=2)
    close(run("atan2", a, b, device=device), torch.atan2(a.float(), b.float()))


@pytest.mark.parametrize("dtype", FLOATS)
def test_atan2_and_nextafter(dtype, device):
    a = torch.tensor([0.0, -0.0, 0.0, -0.0, 1.0, -1.0, INF, -INF, INF, NAN, 2.0], dtype=dtype)
    b = torch.tensor([0.0, 0.0, -0.0, -0.0, INF, -INF, INF, 3.0, -INF, 1.0, -3.0], dtype=dtype)
    c = torch.tensor([0.0, -0.0, 1.0, 1.0, -1.0, INF, 3e38, NAN, 2.0, 1e-45], dtype=dtype)
    d = torch.tensor([1.0, -1.0, 2.0, 0.0, -INF, 0.0, INF, 1.0, NAN, 0.0], dtype=dtype)
    atan2, nextafter = run_many([("atan2", (a, b)), ("nextafter", (c, d))], device)
    close(atan2, torch.atan2(nv_float(a), nv_float(b)))
    expected = torch.nextafter(nv_float(c), nv_float(d))
    assert nextafter.dtype == expected.dtype
    torch.testing.assert_close(nextafter.cpu(), expected, rtol=0, atol=0, equal_nan=True)  # exact


def test_nextafter_refuses_integers():
    with pytest.raises(Exception, match="nextafter"):
        run("nextafter", torch.tensor([1, 2]), torch.tensor([3, 4]))


def _shift_reference(name, a, s, bits):
    """Shifts with torch 2's rule for amounts outside [0, bits): every bit shifted out."""
    out = []
    for x, n in zip(a.tolist(), s.tolist()):
        if not 0 <= n < bits:
            out.append(-1 if name == "bitwise_right_shift" and x < 0 else 0)
        elif name == "bitwise_left_shift":
            v = (x << n) & ((1 << bits) - 1)
            out.append(v - (1 << bits) if v >> (bits - 1) else v)
        elif name == "bitwise_right_shift":
            out.append(x >> n)
        else:
            v = (x & ((1 << bits) - 1)) >> n
            out.append(v - (1 << bits) if v >> (bits - 1) else v)
    return torch.tensor(out, dtype=a.dtype)


@pytest.mark.parametrize("dtype", INTS)
def test_shifts(dtype, device):
    bits = torch.iinfo(dtype).bits
    lo, hi = torch.iinfo(dtype).min, torch.iinfo(dtype).max
    values = [1, -1, 5, -5, hi, lo, 0, 12345]
    amounts = [0, 1, 3, bits - 1, bits, bits + 1, -1, 100]
    a = torch.tensor([v for v in values for _ in amounts], dtype=dtype)
    s = torch.tensor([n for _ in values for n in amounts], dtype=dtype)
    inside = (s >= 0) & (s < bits)
    a_in, s_in = a[inside], s[inside]
    names = ["bitwise_left_shift", "bitwise_right_shift", "logical_right_shift"]
    outs = run_many([(n, (a, s)) for n in names] + [(n, (a, 2)) for n in names] + [(n, (a_in, s_in)) for n in names[:2]],
                    device)
    for n, out in zip(names, outs[:3]):
        close(out, _shift_reference(n, a, s, bits))
    for n, out in zip(names, outs[3:6]):
        close(out, _shift_reference(n, a, torch.full_like(a, 2), bits))
    for n, out in zip(names[:2], outs[6:]):  # torch 1.13 agrees inside [0, bits)
        close(out, getattr(torch, n)(a_in, s_in))


def test_logical_right_shift_matches_unsigned_bits(device):
    a = torch.tensor([-1, -2, -(2 ** 31), 2 ** 31 - 1, -12345], dtype=torch.int32)
    expected = torch.from_numpy((a.numpy().view(np.uint32) >> np.uint32(3)).astype(np.int64)).to(torch.int32)
    close(run("logical_right_shift", a, 3, device=device), expected)


def test_shifts_promote_like_torch(device):
    a = torch.tensor([1, -8, 3], dtype=torch.int32)
    s = torch.tensor([2, 1, 0], dtype=torch.int64)
    close(run("bitwise_left_shift", a, s, device=device), torch.bitwise_left_shift(a, s))


@pytest.mark.parametrize("name", ["bitwise_left_shift", "gcd"])
def test_integer_ops_refuse_other_dtypes(name):
    with pytest.raises(Exception, match=name):
        run(name, torch.tensor([1.0]), torch.tensor([2.0]))
    with pytest.raises(Exception, match=name):
        run(name, torch.tensor([True]), torch.tensor([False]))


@pytest.mark.parametrize("dtype", INTS)
def test_gcd(dtype, device):
    lo, hi = torch.iinfo(dtype).min, torch.iinfo(dtype).max
    a = torch.tensor([12, -12, 0, 0, 7, lo, lo, lo, 6, hi, lo, 1, -9, 48], dtype=dtype)
    b = torch.tensor([18, 18, 5, 0, 13, 0, 6, -1, lo, lo, lo, hi, -6, -36], dtype=dtype)
    close(run("gcd", a, b, device=device), torch.gcd(a, b))
    x, y = make((5, 6), dtype, low=-100, high=100, seed=3), make((5, 6), dtype, low=-100, high=100, seed=4)
    close(run("gcd", x, y, device=device), torch.gcd(x, y))


def test_new_ops_fuse_into_one_kernel(device):
    """A fusion of every new float op, checked as a whole (one specialization, many ops)."""
    x = make((8, 16), torch.float32, low=0.05, high=0.95, seed=9)
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1], [True, True], dtype=DataType.Float)
        y = fd.ops.add(fd.ops.asin(t), fd.ops.acosh(fd.ops.add(t, 1.0)))
        y = fd.ops.mul(y, fd.ops.erfinv(t))
        y = fd.ops.sub(y, fd.ops.remainder(fd.ops.log1p(t), fd.ops.exp2(t)))
        y = fd.ops.where(fd.ops.signbit(fd.ops.sub(t, 0.5)), fd.ops.round(fd.ops.mul(y, 8.0)), y)
        fd.add_output(y)
    out, = fd.execute([x.to(device)])
    y = (torch.asin(x) + torch.acosh(x + 1)) * torch.erfinv(x)
    y = y - torch.remainder(torch.log1p(x), torch.exp2(x))
    y = torch.where(torch.signbit(x - 0.5), torch.round(y * 8), y)
    close(out, y)


@pytest.mark.parametrize("dtypes", [(torch.int32, torch.int32), (torch.int64, torch.int64),
                                    (torch.int32, torch.int64), (torch.bool, torch.int32)])
def test_bitwise_integers(dtypes, device):
    a = make((5, 6), dtypes[0], low=-1000, high=1000, seed=1)
    b = make((5, 6), dtypes[1], low=-1000, high=1000, seed=2)
    names = ["bitwise_and", "bitwise_or", "bitwise_xor"]
    outs = run_many([(n, (a, b)) for n in names] + [(n, (b, 0x5A)) for n in names], device)
    for n, out, args in zip(names * 2, outs, [(a, b)] * 3 + [(b, 0x5A)] * 3):
        close(out, getattr(torch, n)(*args))


@pytest.mark.parametrize("dtype", INTS)
def test_bitwise_not_integers(dtype, device):
    x = torch.tensor([0, -1, 5, torch.iinfo(dtype).min, torch.iinfo(dtype).max], dtype=dtype)
    close(run("bitwise_not", x, device=device), torch.bitwise_not(x))
