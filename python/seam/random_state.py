"""Seeds for random ops defined without rng_seed/rng_offset: every execute draws them from PyTorch's
default generator of the device the fusion runs on, so that torch.manual_seed(s) before an execute
reproduces its values and two executes give different ones (docs/RANDOM.md, "Seeds from PyTorch").

- CUDA: nvFuser's convention on torch's Philox generator. The seed is the generator's seed, the offset
  its Philox offset divided by 4 (torch counts 32-bit values, rounded to multiples of 4; seam's offset
  counts whole streams), and each unseeded random op of the fusion advances the generator by one step
  of 4. After torch.manual_seed(s), the i-th execute of a fusion with one such op gives what the same op
  gives with rng_seed=s, rng_offset=i.
- CPU: torch's CPU generator (a Mersenne Twister) has no offset, so the seed is a 63-bit number drawn
  from it (advancing it as any torch op does) and the ops use offsets 0, 1, ..."""

import torch

_U64 = 1 << 64
_STEP = 4  # torch's Philox offsets are multiples of 4


def _signed(x):
    """A 64-bit seed or offset as the signed value seam's i64 scalar inputs take."""
    x %= _U64
    return x - _U64 if x >= (1 << 63) else x


def _philox_seed_and_offset(gen, count):
    """(seed, offset in 32-bit values) of a Philox generator, advanced by `count` steps of 4: through
    get_offset/set_offset where torch has them, else through get_state/set_state, whose state ends with
    the seed and the offset (8 bytes each, little-endian) in every torch version that has Philox."""
    seed = gen.initial_seed()
    if hasattr(gen, "get_offset") and hasattr(gen, "set_offset"):
        offset = gen.get_offset()
        gen.set_offset(offset + _STEP * count)
        return seed, offset
    state = gen.get_state()
    raw = bytes(state.tolist())
    if len(raw) < 16:
        raise RuntimeError(f"torch's CUDA generator state has {len(raw)} bytes; seam expects the seed and "
                           "the Philox offset in its last 16")
    offset = int.from_bytes(raw[-8:], "little", signed=True)
    advanced = (offset + _STEP * count).to_bytes(8, "little", signed=True)
    state = state.clone()
    state[-8:] = torch.tensor(list(advanced), dtype=torch.uint8)
    gen.set_state(state)
    return seed, offset


def _cuda_generator(index):
    if not torch.cuda.default_generators:
        torch.cuda.init()  # fills torch.cuda.default_generators
    return torch.cuda.default_generators[index]


def draw(device, count):
    """The hidden inputs of `count` unseeded random ops, [seed0, offset0, seed1, offset1, ...], for a
    fusion running on `device`; advances torch's generator."""
    if device.type == "cuda":
        index = device.index if device.index is not None else torch.cuda.current_device()
        seed, offset = _philox_seed_and_offset(_cuda_generator(index), count)
        base = (offset + _STEP - 1) // _STEP
    else:
        seed = int(torch.empty((), dtype=torch.int64).random_(generator=torch.default_generator))
        base = 0
    seed = _signed(seed)
    values = []
    for k in range(count):
        values += [seed, _signed(base + k)]
    return values
