"""Random ops defined without rng_seed/rng_offset: every execute takes a seed and offset from torch's
default generator of the fusion's device (python/seam/random_state.py, docs/RANDOM.md)."""

import pytest
import torch

from seam import DataType, FusionCache, FusionDefinition
from seam import random_state


def unseeded_fd(shape=(5, 9), ops=("uniform",), dtype=DataType.Float):
    with FusionDefinition() as fd:
        lo = fd.define_scalar(0.3, DataType.Float)
        hi = fd.define_scalar(1.7, DataType.Float)
        for name in ops:
            fd.add_output(getattr(fd.ops, name)(lo, hi, shape=list(shape), dtype=dtype))
    return fd


def seeded_fd(name, seed, offset, shape=(5, 9), dtype=DataType.Float):
    with FusionDefinition() as fd:
        lo = fd.define_scalar(0.3, DataType.Float)
        hi = fd.define_scalar(1.7, DataType.Float)
        fd.add_output(getattr(fd.ops, name)(lo, hi, shape=list(shape), rng_seed=seed, rng_offset=offset,
                                            dtype=dtype))
    return fd


def test_manual_seed_reproduces_and_executes_differ(device):
    fd = unseeded_fd(ops=("uniform", "normal"))
    torch.manual_seed(1234)
    first = fd.execute([], device=device)
    second = fd.execute([], device=device)
    torch.manual_seed(1234)
    again = fd.execute([], device=device)
    for a, b, c in zip(first, second, again):
        assert a.device.type == device and a.shape == (5, 9)
        assert torch.equal(a, c)
        assert not torch.equal(a, b)
    u = first[0]
    assert ((u >= 0.3) & (u < 1.7)).all()
    # Two unseeded ops of one fusion draw from different streams.
    assert not torch.equal(first[0], seeded_fd("uniform", 0, 0).execute([], device=device)[0])


def test_one_compilation_for_every_seed(device):
    fd = unseeded_fd()
    fd.execute([], device=device)
    count = FusionCache.get().num_specializations()
    outs = [fd.execute([], device=device)[0] for _ in range(5)]
    assert FusionCache.get().num_specializations() == count
    assert len({tuple(o.flatten().tolist()) for o in outs}) == 5


def test_rand_like_and_randn_like_without_seed(device):
    x = torch.zeros(64, 32, dtype=torch.bfloat16, device=device)
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1], [True, True], dtype=DataType.BFloat16)
        fd.add_output(fd.ops.rand_like(t))
        fd.add_output(fd.ops.randn_like(t))
    torch.manual_seed(7)
    u, z = fd.execute([x])
    assert u.dtype == torch.bfloat16 and u.shape == x.shape and ((u >= 0) & (u < 1)).all()
    assert z.dtype == torch.bfloat16 and 0.8 < z.float().std().item() < 1.2
    torch.manual_seed(7)
    u2, z2 = fd.execute([x])
    assert torch.equal(u, u2) and torch.equal(z, z2)


def test_torchs_generator_advances(device):
    """An execute consumes from torch's generator as a torch random op would."""
    fd = unseeded_fd()
    torch.manual_seed(5)
    untouched = torch.rand(4, device=device)
    torch.manual_seed(5)
    fd.execute([], device=device)
    assert not torch.equal(torch.rand(4, device=device), untouched)


@pytest.mark.cuda
def test_cuda_follows_nvfusers_seed_and_offset():
    """On CUDA, after torch.manual_seed(s) the i-th execute gives what rng_seed=s, rng_offset=i gives
    (nvFuser's convention: the Philox offset in steps of 4)."""
    if not torch.cuda.is_available():
        pytest.skip("no GPU")
    for name in ("uniform", "normal"):
        stateful = unseeded_fd(ops=(name,))
        with FusionDefinition() as stateless:
            lo = stateless.define_scalar(0.3, DataType.Float)
            hi = stateless.define_scalar(1.7, DataType.Float)
            seed = stateless.define_scalar(DataType.Int)
            offset = stateless.define_scalar(DataType.Int)
            stateless.add_output(getattr(stateless.ops, name)(lo, hi, shape=[5, 9], rng_seed=seed,
                                                              rng_offset=offset))
        for seed in (0, 2**40 + 3, 2**63 - 1):
            torch.manual_seed(seed)
            sequence = [stateful.execute([], device="cuda")[0] for _ in range(4)]
            for i, value in enumerate(sequence):
                expected, = stateless.execute([seed, i], device="cuda")
                assert torch.equal(value, expected), (name, seed, i)


class FakeGeneratorWithOffset:
    def __init__(self, seed, offset):
        self.seed, self.offset = seed, offset

    def initial_seed(self):
        return self.seed

    def get_offset(self):
        return self.offset

    def set_offset(self, offset):
        self.offset = offset


class FakeGeneratorWithState:
    """torch before get_offset: a byte state ending with the seed and the offset."""

    def __init__(self, seed, offset, prefix=0):
        self.state = torch.cat([torch.zeros(prefix, dtype=torch.uint8),
                                torch.tensor([seed - (1 << 64) if seed >= 1 << 63 else seed, offset],
                                             dtype=torch.int64).view(torch.uint8)])

    def initial_seed(self):
        return int(self.state[-16:].view(torch.int64)[0]) % (1 << 64)

    def get_state(self):
        return self.state.clone()

    def set_state(self, state):
        assert state.dtype == torch.uint8 and state.shape == self.state.shape
        self.state = state.clone()

    def offset(self):
        return int(self.state[-8:].view(torch.int64)[0])


@pytest.mark.parametrize("make", [FakeGeneratorWithOffset, FakeGeneratorWithState,
                                  lambda s, o: FakeGeneratorWithState(s, o, prefix=24)])
def test_cuda_generator_seed_offset_and_advance(make, monkeypatch):
    gen = make(2**64 - 5, 8)  # a seed above 2^63 arrives as the same 64 bits, signed
    monkeypatch.setattr(random_state, "_cuda_generator", lambda index: gen)
    device = torch.device("cuda", 0)
    assert random_state.draw(device, 1) == [-5, 2]
    assert random_state.draw(device, 3) == [-5, 3, -5, 4, -5, 5]
    assert random_state.draw(device, 1) == [-5, 6]
    offset = gen.offset if isinstance(gen, FakeGeneratorWithOffset) else gen.offset()
    assert offset == 8 + 4 * 5


def test_cpu_draws_a_seed_from_torchs_cpu_generator():
    device = torch.device("cpu")
    torch.manual_seed(11)
    a = random_state.draw(device, 2)
    b = random_state.draw(device, 2)
    torch.manual_seed(11)
    assert random_state.draw(device, 2) == a
    assert a[0] == a[2] and a[1::2] == [0, 1] and a[0] != b[0]
    assert 0 <= a[0] < 2**63
