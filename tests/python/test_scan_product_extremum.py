"""fd.ops.cumprod, fd.ops.cummin and fd.ops.cummax (legacy and nvfuser_direct frontends) against torch:
every dtype (cumprod of integers and bools in int64, Half/BFloat16 products rounded from a Float running
product; cummin/cummax in the input's dtype), every dim, rows that take the rows kernel and the lines
kernel, a transposed input, NaN that stays, signed zeros, nvFuser's `init`, and the printed definition."""

import math

import pytest
import torch

from conftest import make
from seam import FusionDefinition

OPS = {"cumprod": torch.cumprod, "cummin": lambda x, d: torch.cummin(x, d).values,
       "cummax": lambda x, d: torch.cummax(x, d).values}
DTYPES = [torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int32, torch.int64, torch.bool]


def run(x, body, device, fd_class=FusionDefinition):
    with fd_class() as fd:
        t = fd.from_pytorch(x)
        out = body(fd, t)
        for o in out if isinstance(out, tuple) else (out,):
            fd.add_output(o)
    return fd.execute([x.to(device)])


def reference(name, x, dim):
    """torch's op; Half and BFloat16 as PyTorch's CUDA kernels compute them (a Float running value, each
    output rounded), which torch 1.13's CPU kernels lack for Half."""
    if x.dtype in (torch.float16, torch.bfloat16):
        return OPS[name](x.float(), dim).to(x.dtype)
    return OPS[name](x, dim)


def float_product_rtol(length):
    """How far an f32 running product of `length` factors may be from an exact one (as
    tests/testing/scan_cases.cpp's float_product_rtol, which says why): six standard deviations of the
    random walk of its length-1 roundings, a bias of 1/32 ulp per factor (a tree order rounds products of
    factors near 1 down more often than up), two ulps for the output's rounding."""
    return 2.0 ** -24 * (2 + 6 * math.sqrt(max(length, 1) / 3) + max(length, 1) / 32)


def rows_kernel_order_cumprod(x, items=4, threads=256):
    """torch.cumprod of a 2-D f32 tensor along dim 1, rounded in the order of the GPU's rows kernel
    (src/codegen/scan_kernel_printer.cpp): per chunk of threads * items, each thread's items serially,
    the threads' totals across each warp and the warps' totals in shuffle trees, then the earlier chunks'
    carry times the warps before times the lanes before, times the thread's own running product."""
    lines, n = x.shape
    warps, chunk = threads // 32, threads * items
    out, carry = torch.empty_like(x), torch.ones(lines, 1, 1)

    def tree(v):  # inclusive shuffle-up scan along the last dim
        d = 1
        while d < v.shape[-1]:
            v = torch.cat([v[..., :d], v[..., d:] * v[..., :-d]], -1)
            d *= 2
        return v

    for start in range(0, n, chunk):
        m = min(chunk, n - start)
        part = torch.cat([x[:, start:start + m], torch.ones(lines, chunk - m)], 1).view(lines, threads, items)
        running = [part[..., 0]]
        for j in range(1, items):
            running.append(running[-1] * part[..., j])
        own = torch.stack(running, -1)  # lines, threads, items
        lanes = tree(own[..., -1].reshape(lines, warps, 32))
        warp_totals = tree(lanes[..., 31])
        lanes_before = torch.cat([torch.ones(lines, warps, 1), lanes[..., :-1]], -1)
        warps_before = torch.cat([torch.ones(lines, 1), warp_totals[:, :-1]], -1)
        prefix = carry * (warps_before[..., None] * lanes_before)
        out[:, start:start + m] = (prefix.reshape(lines, threads, 1) * own).reshape(lines, chunk)[:, :m]
        carry = carry * warp_totals[:, -1:, None]
    return out


def same(actual, expected, name, length):
    """Extrema exactly (NaN where torch has NaN, zeros' signs); products at a relative tolerance (the
    running product is a double here and f32 on the GPU, each output rounded to its dtype: for Half and
    BFloat16 the f32 error is far below their one ulp of 2^-10 and 2^-7)."""
    assert actual.dtype == expected.dtype, f"dtype {actual.dtype}, expected {expected.dtype}"
    actual, expected = actual.cpu(), expected.cpu()
    if name != "cumprod":
        torch.testing.assert_close(actual, expected, rtol=0, atol=0, equal_nan=True)
        if actual.is_floating_point():  # a NaN's sign bit means nothing
            numbers = ~expected.isnan()
            assert torch.equal(actual.signbit()[numbers], expected.signbit()[numbers]), "signs of zeros differ"
        return
    tol = {torch.float16: (2e-3, 1e-7), torch.bfloat16: (1.6e-2, 1e-30),
           torch.float32: (float_product_rtol(length), 1e-30), torch.float64: (1e-10, 1e-300)}
    rtol, atol = tol.get(actual.dtype, (0, 0))
    torch.testing.assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=True)


@pytest.mark.parametrize("name", list(OPS))
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_dtypes_and_dims(name, dtype, dim, device):
    # Floating factors near 1 keep long products away from 0 and infinity; integers in [-8, 8) (no 0) wrap
    # around int64 within a few dozen factors, as torch's do; extrema see values in [-2, 2).
    near_one = name == "cumprod" and dtype.is_floating_point
    x = make((6, 130), dtype, low=0.9 if near_one else None, high=1.1 if near_one else None)
    if name == "cumprod" and dtype in (torch.int32, torch.int64):
        x[x == 0] = 3  # no zero ends the product early
    out, = run(x, lambda fd, t: getattr(fd.ops, name)(t, dim), device)
    same(out, reference(name, x, dim), name, x.shape[dim])


@pytest.mark.parametrize("name", list(OPS))
@pytest.mark.parametrize("length", [1, 33, 1000, 4097])
def test_row_lengths(name, length, device):
    x = make((3, length), low=0.999, high=1.001) if name == "cumprod" else make((3, length))
    out, = run(x, lambda fd, t: getattr(fd.ops, name)(t, -1), device)
    same(out, reference(name, x, -1), name, length)


@pytest.mark.parametrize("length", [1000, 4097, 100000])
def test_float_product_tolerance_admits_rounding_and_catches_a_dropped_factor(length):
    """The f32 product's tolerance against the GPU's rounding of test_row_lengths' factors in [0.999, 1.001]
    (the rows kernel's order: at 1000 and 4097 it gives the H100's worst errors, where they are, and how
    many exceeded the former tolerance, exactly), and against a mistake: the same product with one factor
    of 1.0005 dropped (5e-4 relative) fails."""
    assert float_product_rtol(length) < 5e-4 / (20 if length <= 4097 else 1.5)  # the 100000: 2.5e-4
    x = make((3, length), low=0.999, high=1.001)
    x[:, length // 2] = 1.0005
    expected = torch.cumprod(x.double(), -1).float()
    kernel = rows_kernel_order_cumprod(x)
    assert not torch.equal(kernel, expected)
    same(kernel, expected, "cumprod", length)
    dropped = x.clone()
    dropped[:, length // 2] = 1.0
    with pytest.raises(AssertionError):
        same(torch.cumprod(dropped.double(), -1).float(), expected, "cumprod", length)


@pytest.mark.parametrize("name", ["cummin", "cummax"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16])
def test_nan_stays_and_zeros_keep_the_later_sign(name, dtype, device):
    x = make((4, 300), dtype)
    x[x > 1.98] = float("nan")  # one in 200: most rows see a NaN part way along
    x[:, 5:40] = 0.0
    x[:, 5:40:3] = -0.0
    x[0] = torch.where(torch.arange(300) % 2 == 0, 0.0, -0.0).to(dtype)  # only zeros: every value ties
    out, = run(x, lambda fd, t: getattr(fd.ops, name)(t, 1), device)
    same(out, reference(name, x, 1), name, 300)
    assert out.isnan().any() and not out.isnan().all()


@pytest.mark.parametrize("name", list(OPS))
def test_transposed_input_and_pointwise_around(name, device):
    x = make((200, 6), torch.bfloat16, low=0.95, high=1.05).t()  # a non-contiguous input

    def body(fd, t):
        y = getattr(fd.ops, name)(fd.ops.mul(t, 2.0), 1)
        return fd.ops.add(y, 1.0), getattr(fd.ops, name)(fd.ops.permute(t, [1, 0]), 0)

    y, z = run(x, body, device)
    same(y, OPS[name](x.float() * 2.0, 1) + 1.0, name, 200)
    same(z, reference(name, x.t(), 0), name, 200)


@pytest.mark.parametrize("name", list(OPS))
def test_rank_zero_and_keyword_dim(name, device):
    x = torch.tensor(-2.5)
    out, = run(x, lambda fd, t: getattr(fd.ops, name)(t, dim=0), device)
    same(out, OPS[name](x, 0), name, 1)


def test_init_is_combined_with_every_output(device):
    x = make((3, 70), low=0.5, high=1.5)
    out = run(x, lambda fd, t: (fd.ops.cumprod(t, 1, init=2.0), fd.ops.cummax(t, 1, init=1.2),
                                fd.ops.cummin(t, 1, init=0.8), fd.ops.cumsum(t, 1, init=-1.0)), device)
    same(out[0], torch.cumprod(x, 1) * 2.0, "cumprod", 70)
    same(out[1], torch.cummax(x, 1).values.clamp(min=1.2), "cummax", 70)
    same(out[2], torch.cummin(x, 1).values.clamp(max=0.8), "cummin", 70)
    torch.testing.assert_close(out[3].cpu(), torch.cumsum(x, 1) - 1.0)


def test_init_that_changes_the_dtype_is_an_error():
    with FusionDefinition() as fd:
        t = fd.from_pytorch(torch.ones(3, dtype=torch.int32))
        fd.add_output(fd.ops.cummax(t, 0, init=0.5))
    with pytest.raises(Exception, match="cummax: an init of dtype f64 would change the result's dtype i32"):
        fd.execute([torch.ones(3, dtype=torch.int32)])


def test_bad_dim_names_the_op():
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1], [True, True])
        fd.add_output(fd.ops.cummin(t, 2))
    with pytest.raises(Exception, match="dim 2 is out of range"):
        fd.execute([torch.ones(2, 3)])


@pytest.mark.parametrize("name", list(OPS))
def test_direct_frontend_and_printed_definition(name, device):
    import nvfuser_direct
    x = make((5, 70), torch.float16, low=0.9, high=1.1)
    out, = run(x, lambda fd, t: getattr(fd.ops, name)(t, -1), device, nvfuser_direct.FusionDefinition)
    same(out, reference(name, x, -1), name, 70)
    with nvfuser_direct.FusionDefinition() as fd:
        t = fd.from_pytorch(x)
        fd.add_output(getattr(fd.ops, name)(t, 1))
    assert f"fd.ops.{name}(tv0, 1)" in repr(fd), repr(fd)
    namespace = {}
    exec(repr(fd), {"DataType": nvfuser_direct.DataType, "FusionDefinition": nvfuser_direct.FusionDefinition},
         namespace)  # the printed definition runs
    with nvfuser_direct.FusionDefinition() as again:
        namespace["nvfuser_fusion"](again)
    same(again.execute([x.to(device)])[0], reference(name, x, 1), name, 70)
