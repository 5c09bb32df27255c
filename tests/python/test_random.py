"""Random numbers: fd.ops.uniform, normal, rand_like, randn_like (docs/RANDOM.md). Values are seam's own
(Philox-4x32-10 per element), not torch's: the tests check determinism, streams, distributions, shapes,
dtypes, bad arguments, and that CUDA and CPU tensors give the same bits. Ops without a seed take it from
torch's generator per execute (test_random_seeds.py)."""

import math

import pytest
import torch

from conftest import make
from seam import DataType, FusionDefinition

DTYPES = [(DataType.Half, torch.float16), (DataType.BFloat16, torch.bfloat16),
          (DataType.Float, torch.float32), (DataType.Double, torch.float64)]


def uniform_fd(shape, seed, offset, dtype=DataType.Float, lo=0.0, hi=1.0):
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.uniform(lo, hi, shape, rng_seed=seed, rng_offset=offset, dtype=dtype))
    return fd


def test_uniform_deterministic_for_a_seed(device):
    a, = uniform_fd([64, 33], 42, 0).execute([], device=device)
    b, = uniform_fd([64, 33], 42, 0).execute([], device=device)
    assert a.device.type == device
    assert torch.equal(a, b)


def test_offsets_and_seeds_give_other_streams(device):
    base, = uniform_fd([4096], 1, 0).execute([], device=device)
    for seed, offset in ((1, 1), (2, 0), (1, 1 << 40), (-1, 0)):
        other, = uniform_fd([4096], seed, offset).execute([], device=device)
        assert (base == other).sum().item() < 5, (seed, offset)


def test_value_is_a_function_of_the_linear_index(device):
    flat, = uniform_fd([60], 7, 3).execute([], device=device)
    shaped, = uniform_fd([3, 4, 5], 7, 3).execute([], device=device)
    assert torch.equal(flat.reshape(3, 4, 5), shaped)
    prefix, = uniform_fd([10], 7, 3).execute([], device=device)
    assert torch.equal(prefix, flat[:10])


def test_seed_and_offset_as_run_time_scalars(device):
    with FusionDefinition() as fd:
        seed = fd.define_scalar(None, dtype=DataType.Int)
        offset = fd.define_scalar(None, dtype=DataType.Int)
        fd.add_output(fd.ops.uniform(-1.0, 1.0, [128], rng_seed=seed, rng_offset=offset))
    first, = fd.execute([5, 0], device=device)
    again, = fd.execute([5, 0], device=device)
    other, = fd.execute([5, 1], device=device)
    assert torch.equal(first, again)
    assert not torch.equal(first, other)
    constant, = uniform_fd([128], 5, 1, lo=-1.0, hi=1.0).execute([], device=device)
    assert torch.equal(other, constant)
    assert "uniform" in fd.fusion_ir()


@pytest.mark.parametrize("dtype,torch_dtype", DTYPES)
def test_shapes_dtypes_and_range(dtype, torch_dtype, device):
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.uniform(2.0, 3.0, [5, 7, 3], rng_seed=3, rng_offset=9, dtype=dtype))
        fd.add_output(fd.ops.normal(0.0, 1.0, [0, 4], rng_seed=3, rng_offset=9, dtype=dtype))
        fd.add_output(fd.ops.normal(1.0, 2.0, [], rng_seed=3, rng_offset=9, dtype=dtype))
    u, empty, scalar = fd.execute([], device=device)
    assert u.shape == (5, 7, 3) and u.dtype == torch_dtype
    assert ((u >= 2.0) & (u < 3.0)).all()
    assert empty.shape == (0, 4) and empty.dtype == torch_dtype
    assert scalar.shape == () and scalar.dtype == torch_dtype


@pytest.mark.parametrize("dtype,torch_dtype", [(DataType.Float, torch.float32), (DataType.Double, torch.float64)])
def test_distributions_of_1e5_samples(dtype, torch_dtype, device):
    n = 100_000
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.uniform(-1.0, 3.0, [n], rng_seed=11, rng_offset=0, dtype=dtype))
        fd.add_output(fd.ops.normal(0.5, 2.0, [n], rng_seed=11, rng_offset=1, dtype=dtype))
    u, z = (t.double().cpu() for t in fd.execute([], device=device))
    assert abs(u.mean().item() - 1.0) < 5 * 4 / math.sqrt(12 * n)
    assert abs(u.std().item() - 4 / math.sqrt(12)) < 0.01
    assert u.min().item() >= -1.0 and u.max().item() < 3.0
    assert abs(z.mean().item() - 0.5) < 5 * 2 / math.sqrt(n)
    assert abs(z.std().item() - 2.0) < 0.02
    # Tails: about 0.27% beyond three standard deviations.
    tail = ((z - 0.5).abs() > 6.0).double().mean().item()
    assert 0.0018 < tail < 0.0036


def test_rand_like_and_randn_like(device):
    x = make((32, 48), torch.bfloat16)
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1], [True, True], dtype=DataType.BFloat16)
        seed = fd.define_scalar(None, dtype=DataType.Int)
        fd.add_output(fd.ops.rand_like(t, rng_seed=seed, rng_offset=0))
        fd.add_output(fd.ops.randn_like(t, rng_seed=seed, rng_offset=0))
    u, z = fd.execute([x.to(device), 4], device=device)
    assert u.shape == x.shape and u.dtype == torch.bfloat16
    assert z.shape == x.shape and z.dtype == torch.bfloat16
    assert ((u >= 0) & (u < 1)).all()
    expected, = uniform_fd([32, 48], 4, 0, dtype=DataType.BFloat16).execute([], device=device)
    assert torch.equal(u, expected)


def test_dropout(device):
    x = make((64, 96))
    p = 0.25
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1], [True, True])
        seed = fd.define_scalar(None, dtype=DataType.Int)
        offset = fd.define_scalar(None, dtype=DataType.Int)
        u = fd.ops.uniform(0.0, 1.0, t.shape(), rng_seed=seed, rng_offset=offset)
        keep = fd.ops.ge(u, p)
        fd.add_output(fd.ops.div(fd.ops.mul(t, fd.ops.cast(keep, DataType.Float)), 1.0 - p))
        fd.add_output(keep)
    y, keep = fd.execute([x.to(device), 1234, 0], device=device)
    assert keep.dtype == torch.bool
    torch.testing.assert_close(y.cpu(), (x * keep.cpu() / (1 - p)))
    assert abs(keep.double().mean().item() - (1 - p)) < 0.02
    y2, keep2 = fd.execute([x.to(device), 1234, 1], device=device)
    assert not torch.equal(keep, keep2)


@pytest.mark.cuda
def test_cuda_and_cpu_give_the_same_bits():
    if not torch.cuda.is_available():
        pytest.skip("no GPU")
    for dtype, _ in DTYPES:
        with FusionDefinition() as fd:
            fd.add_output(fd.ops.uniform(-2.0, 2.0, [257, 33], rng_seed=8, rng_offset=1, dtype=dtype))
            fd.add_output(fd.ops.normal(1.0, 3.0, [257, 33], rng_seed=8, rng_offset=2, dtype=dtype))
        cpu = fd.execute([], device="cpu")
        gpu = fd.execute([], device="cuda")
        for c, g in zip(cpu, gpu):
            assert torch.equal(c, g.cpu()), dtype


def test_values_are_not_torchs():
    """seam does not reproduce PyTorch's generator (docs/RANDOM.md): documented, and checked here so that
    a change to that decision is deliberate."""
    ours, = uniform_fd([1000], 0, 0).execute([])
    torch.manual_seed(0)
    assert not torch.equal(ours.cpu(), torch.rand(1000))


def test_bad_arguments_raise_messages():
    with FusionDefinition() as fd:
        with pytest.raises(ValueError, match="must be given together"):
            fd.ops.normal(0.0, 1.0, [4], rng_seed=1)
        t = fd.define_tensor([-1], [True])
        with pytest.raises(ValueError, match="must be given together"):
            fd.ops.rand_like(t, rng_offset=2)
    cases = [
        (lambda fd: fd.ops.uniform(0.0, 1.0, [4], rng_seed=1.5, rng_offset=0), "rng_seed must be an integer"),
        (lambda fd: fd.ops.uniform(0.0, 1.0, [4], rng_seed=1, rng_offset=True), "rng_offset must be an integer"),
        (lambda fd: fd.ops.uniform(0.0, 1.0, [4], rng_seed=1, rng_offset=0, dtype=DataType.Int), "floating"),
        (lambda fd: fd.ops.uniform(0.0, 1.0, [-1, 2], rng_seed=1, rng_offset=0), "extents must be >= 0"),
        (lambda fd: fd.ops.normal(True, 1.0, [4], rng_seed=1, rng_offset=0), "mean must be a number"),
    ]
    with FusionDefinition() as fd:  # known when defined
        with pytest.raises(ValueError, match="argument rng_seed: the Python int 18446744073709551616 does not fit"):
            fd.ops.uniform(0.0, 1.0, [4], rng_seed=1 << 64, rng_offset=0)
    for body, message in cases:
        with FusionDefinition() as fd:
            fd.add_output(body(fd))
        with pytest.raises(ValueError, match=message):
            fd.execute([])
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1], [True], dtype=DataType.Int)
        fd.add_output(fd.ops.rand_like(t, rng_seed=1, rng_offset=0))
    with pytest.raises(ValueError, match="rand_like: needs a floating tensor"):
        fd.execute([torch.arange(4)])
