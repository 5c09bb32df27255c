"""fd.ops.scatter against torch.scatter: random shapes and dims (negative ones too), int32 and int64
indices (negative ones wrapped once; torch rejects them, so its reference gets them wrapped), sources larger
than the index, scalar sources (a Python number and a defined scalar), the scatter read by later work and
returned as well, empty indices, repeated indices on the CPU (the write latest along the dim lands), and
the errors bad operands and an index out of range raise."""

import random

import pytest
import torch

from conftest import close, make
import seam
from seam import DataType, FusionDefinition

INDEX_DTYPES = {torch.int32: DataType.Int32, torch.int64: DataType.Int}


def distinct_indices(shape, dim, extent, dtype, seed):
    """Indices of `shape` naming distinct positions of an axis of `extent` along each line of `dim`, about
    half of them written negative (i - extent)."""
    g = torch.Generator().manual_seed(seed)
    count = torch.Size([s for d, s in enumerate(shape) if d != dim]).numel()
    if count == 0 or shape[dim] == 0:
        return torch.zeros(shape, dtype=dtype)
    lines = torch.stack([torch.randperm(extent, generator=g)[:shape[dim]] for _ in range(count)])
    moved = [s for d, s in enumerate(shape) if d != dim] + [shape[dim]]
    index = lines.reshape(moved).movedim(-1, dim)
    negative = torch.rand(index.shape, generator=g) < 0.5
    return torch.where(negative, index - extent, index).to(dtype).contiguous()


def wrapped(index, extent):
    return torch.where(index < 0, index + extent, index).to(torch.int64)


def fd_dtype(dtype):
    return {torch.float32: DataType.Float, torch.float64: DataType.Double, torch.bfloat16: DataType.BFloat16,
            torch.int32: DataType.Int32, torch.int64: DataType.Int, torch.bool: DataType.Bool}[dtype]


def scatter_run(x, index, src, dim, device, then=None):
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1] * x.dim(), contiguity=[True] * x.dim(), dtype=fd_dtype(x.dtype))
        i = fd.define_tensor(shape=[-1] * index.dim(), contiguity=[True] * index.dim(),
                             dtype=INDEX_DTYPES[index.dtype])
        s = fd.define_tensor(shape=[-1] * src.dim(), contiguity=[True] * src.dim(), dtype=fd_dtype(src.dtype)) \
            if isinstance(src, torch.Tensor) else src
        out = fd.ops.scatter(t, i, s, dim)
        fd.add_output(out)
        if then is not None:
            fd.add_output(then(fd, out))
    inputs = [x.to(device), index.to(device)] + ([src.to(device)] if isinstance(src, torch.Tensor) else [])
    return fd.execute(inputs)


@pytest.mark.parametrize("seed", range(8))
def test_random_shapes_match_torch(seed, device):
    rnd = random.Random(seed)
    rank = rnd.randint(1, 3)
    shape = [rnd.randint(1, 6) for _ in range(rank)]
    dim = rnd.randrange(-rank, rank)
    d = dim % rank
    index_shape = [rnd.randint(0, e) for e in shape]
    index_shape[d] = rnd.randint(0, shape[d])
    src_shape = [e + rnd.randint(0, 2) for e in index_shape]
    dtype = rnd.choice([torch.float32, torch.bfloat16, torch.int64, torch.bool])
    x, src = make(shape, dtype, seed=seed), make(src_shape, dtype, seed=seed + 50)
    index = distinct_indices(index_shape, d, shape[d], rnd.choice(list(INDEX_DTYPES)), seed)
    out, = scatter_run(x, index, src, dim, device)
    close(out, torch.scatter(x, dim, wrapped(index, shape[d]), src))


@pytest.mark.parametrize("value", [1.5, -3, True])
def test_a_python_number_source(value, device):
    x = make((8, 5), seed=1)
    index = distinct_indices((4, 5), 0, 8, torch.int64, 2)
    out, = scatter_run(x, index, value, 0, device)
    close(out, torch.scatter(x, 0, wrapped(index, 8), float(value)))


def test_a_defined_scalar_source(device):
    """nvFuser's test_scatter_scalar_src: a Double scalar written into Float data."""
    x = make((16, 32), seed=3)
    index = distinct_indices((8, 32), 0, 16, torch.int64, 4)
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
        i = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int)
        s = fd.define_scalar(None, dtype=DataType.Double)
        fd.add_output(fd.ops.scatter(t, i, s, 0))
    out, = fd.execute([x.to(device), index.to(device), 0.25])
    close(out, torch.scatter(x, 0, wrapped(index, 16), 0.25))


def test_the_scatter_read_by_later_work_and_returned(device):
    """nvFuser's test_scatter_output_intermediate, also returning the scatter."""
    x, src = make((32, 24), seed=5), make((10, 24), seed=6)
    index = distinct_indices((10, 24), 0, 32, torch.int64, 7)
    out, activated = scatter_run(x, index, src, 0, device, then=lambda fd, y: fd.ops.sigmoid(y))
    expected = torch.scatter(x, 0, wrapped(index, 32), src)
    close(out, expected)
    close(activated, torch.sigmoid(expected))


def test_an_empty_index_leaves_the_data(device):
    x, src = make((3, 4), seed=8), make((3, 4), seed=9)
    out, = scatter_run(x, torch.zeros((3, 0), dtype=torch.int64), src, 1, device)
    close(out, x)


def test_repeated_indices_keep_the_write_latest_along_the_dim():
    x = torch.zeros(3)
    index = torch.tensor([2, 0, 2, 2, -3])
    src = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
    out, = scatter_run(x, index, src, 0, "cpu")
    assert out.tolist() == [5.0, 0.0, 4.0]


@pytest.mark.parametrize("bad", [4, -5, 1 << 40])
def test_out_of_range_index_is_an_error(bad, device):
    x, src = make((4, 3), seed=10), make((2, 3), seed=11)
    index = torch.tensor([[0, 1, 2], [3, bad, 0]])
    with pytest.raises(seam.SeamError, match=rf"scatter.*index {bad} is out of range for axis 0 of extent 4 "
                                             r"\(valid: -4 to 3\)"):
        scatter_run(x, index, src, 0, device)


@pytest.mark.parametrize("index_dtype, src_dtype, message", [
    (DataType.Float, DataType.Float, "scatter: the index must have an integer dtype, got f32"),
    (DataType.Int, DataType.BFloat16, "the source bf16\\[1,2\\] must have the data's dtype f32"),
])
def test_bad_operands_are_errors(index_dtype, src_dtype, message):
    torch_dtypes = {DataType.Float: torch.float32, DataType.Int: torch.int64, DataType.BFloat16: torch.bfloat16}
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
        i = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=index_dtype)
        s = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=src_dtype)
        fd.add_output(fd.ops.scatter(t, i, s, 0))
    with pytest.raises((ValueError, seam.SeamError), match=message):
        fd.execute([make((3, 2)), torch.zeros((1, 2), dtype=torch_dtypes[index_dtype]),
                    make((1, 2), torch_dtypes[src_dtype])])
