"""Indexing ops (index_select, select, gather, take_along_axis) against torch eager: random shapes,
negative dims, broadcast indices, empty tensors, int32 and int64 indices, negative indices (seam wraps
them once; torch.gather and index_select reject them, so the reference gets them wrapped) and the error
an index out of range raises."""

import random

import pytest
import torch

from conftest import close, make
import seam
from seam import DataType, FusionDefinition

INDEX_DTYPES = {torch.int32: DataType.Int32, torch.int64: DataType.Int}


def indices(shape, extent, dtype, seed):
    """Random indices in [-extent, extent): negative ones included."""
    g = torch.Generator().manual_seed(seed)
    return torch.randint(-extent, max(extent, 1), shape, generator=g, dtype=dtype)


def wrapped(index, extent):
    return torch.where(index < 0, index + extent, index).to(torch.int64)


def run(body, x, index, device, index_symbolic=True):
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1] * x.dim(), contiguity=[True] * x.dim(), dtype=DataType.Float)
        i = fd.define_tensor(shape=[-1 if index_symbolic else s for s in index.shape],
                             contiguity=[True] * index.dim(), dtype=INDEX_DTYPES[index.dtype])
        fd.add_output(body(fd, t, i))
    return fd.execute([x.to(device), index.to(device)])[0]


@pytest.mark.parametrize("seed", range(6))
def test_index_select_random_shapes(seed, device):
    rnd = random.Random(seed)
    rank = rnd.randint(1, 3)
    shape = [rnd.randint(1, 6) for _ in range(rank)]
    dim = rnd.randrange(-rank, rank)
    dtype = rnd.choice(list(INDEX_DTYPES))
    x = make(shape, seed=seed)
    index = indices((rnd.randint(0, 7),), shape[dim], dtype, seed)
    out = run(lambda fd, t, i: fd.ops.index_select(t, i, dim), x, index, device)
    close(out, torch.index_select(x, dim, wrapped(index, shape[dim])))


@pytest.mark.parametrize("seed", range(6))
def test_gather_random_shapes(seed, device):
    rnd = random.Random(100 + seed)
    rank = rnd.randint(1, 3)
    shape = [rnd.randint(1, 5) for _ in range(rank)]
    dim = rnd.randrange(-rank, rank)
    index_shape = [rnd.randint(0, e) for e in shape]
    index_shape[dim] = rnd.randint(1, 6)
    dtype = rnd.choice(list(INDEX_DTYPES))
    x = make(shape, seed=seed)
    index = indices(index_shape, shape[dim], dtype, seed)
    out = run(lambda fd, t, i: fd.ops.gather(t, i, dim), x, index, device)
    close(out, torch.gather(x, dim, wrapped(index, shape[dim])))


@pytest.mark.parametrize("seed", range(6))
def test_take_along_axis_broadcast_index(seed, device):
    rnd = random.Random(200 + seed)
    rank = rnd.randint(1, 3)
    shape = [rnd.randint(1, 5) for _ in range(rank)]
    dim = rnd.randrange(-rank, rank)
    index_shape = [rnd.choice([e, 1]) for e in shape]
    index_shape[dim] = rnd.randint(1, 6)
    dtype = rnd.choice(list(INDEX_DTYPES))
    x = make(shape, seed=seed)
    index = indices(index_shape, shape[dim], dtype, seed)
    out = run(lambda fd, t, i: fd.ops.take_along_axis(t, i, dim), x, index, device,
              index_symbolic=False)  # extent-1 axes of the index are broadcast ones
    expected_shape = [e if d == dim % rank else max(e, f) for d, (e, f) in enumerate(zip(index_shape, shape))]
    reference = torch.take_along_dim(x, wrapped(index, shape[dim]).expand(expected_shape), dim)
    close(out, reference)


def test_select_with_scalar_input_and_constant(device):
    x = make((3, 4, 5))
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True] * 3)
        s = fd.define_scalar(None, dtype=DataType.Int)
        fd.add_output(fd.ops.select(t, s, dim=1))
        fd.add_output(fd.ops.select(t, -1, -1))
    a, b = fd.execute([x.to(device), -2])
    close(a, x[:, -2, :])
    close(b, x[:, :, -1])


def test_cross_entropy_one_kernel(device):
    logits = make((6, 50))
    targets = indices((6,), 50, torch.int64, 3).abs()
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, -1], contiguity=[True, True])
        i = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int)
        m = fd.ops.max(t, [1], keepdim=True)
        shifted = fd.ops.sub(t, fd.ops.broadcast_in_dim(m, t.shape(), [0, 1]))
        lse = fd.ops.add(fd.ops.log(fd.ops.sum(fd.ops.exp(shifted), [1], keepdim=True)), m)
        picked = fd.ops.take_along_axis(t, fd.ops.broadcast_in_dim(i, [6, 1], [0]), 1)
        # [6, 1]: squeezing the row kernel's result would cost a kernel of its own (row kernels keep
        # movement of values computed from a reduction apart), indexing or not.
        fd.add_output(fd.ops.sub(lse, picked))
    out, = fd.execute([logits.to(device), targets.to(device)])
    close(out, torch.nn.functional.cross_entropy(logits, targets, reduction="none")[:, None])
    assert "kernels: 1" in fd.last_segmentation()


def test_empty_data_and_index(device):
    x = make((0, 3))
    out = run(lambda fd, t, i: fd.ops.index_select(t, i, 0), x, torch.zeros(0, dtype=torch.int64), device)
    assert out.shape == (0, 3)
    y = make((2, 3))
    out = run(lambda fd, t, i: fd.ops.gather(t, i, 1), y, torch.zeros(0, 3, dtype=torch.int32), device)
    assert out.shape == (0, 3)


@pytest.mark.parametrize("bad", [3, -4, 1 << 40])
def test_out_of_range_index_is_an_error(bad, device):
    x = make((2, 3))
    index = torch.tensor([[0], [bad]], dtype=torch.int64)
    with pytest.raises(seam.SeamError, match=rf"take_along_axis.*index {bad} is out of range for axis 1 "
                                             r"of extent 3 \(valid: -3 to 2\)"):
        run(lambda fd, t, i: fd.ops.take_along_axis(t, i, 1), x, index, device, index_symbolic=False)


def test_index_dtype_must_be_integer():
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, -1], contiguity=[True, True])
        i = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float)
        fd.add_output(fd.ops.index_select(t, i, 0))
    with pytest.raises(ValueError, match="index_select: the index must have an integer dtype, got f32"):
        fd.execute([make((2, 3)), make((2,))])


@pytest.mark.parametrize("max_norm,norm_type", [(None, None), (1.0, None), (0.5, 1.0), (2.0, 3.0)])
@pytest.mark.parametrize("index_shape", [(5,), (2, 3), ()])
def test_embedding_fwd(max_norm, norm_type, index_shape, device):
    weight = make((7, 4), torch.bfloat16)
    index = torch.randint(0, 7, index_shape)
    with FusionDefinition() as fd:
        i = fd.from_pytorch(index.to(device))  # a 0-dim CPU index would declare a CPU scalar (is_cpu)
        w = fd.from_pytorch(weight)
        options = [fd.define_scalar(v, dtype=DataType.Double) if v is not None else None
                   for v in (max_norm, norm_type)]
        fd.add_output(fd.ops.embedding_fwd(i, w, None, *options))
    out, = fd.execute([index.to(device), weight.to(device)])
    expected = torch.nn.functional.embedding(index, weight.clone().float(), None, max_norm,
                                             2.0 if norm_type is None else norm_type).to(torch.bfloat16)
    close(out, expected)


def test_embedding_fwd_needs_integer_indices():
    with FusionDefinition() as fd:
        i = fd.define_tensor([-1], [True], dtype=DataType.Float)
        w = fd.define_tensor([-1, -1], [True, True], dtype=DataType.Float)
        fd.add_output(fd.ops.embedding_fwd(i, w))
    with pytest.raises(ValueError, match="embedding_fwd: input must hold integer indices"):
        fd.execute([torch.zeros(2), torch.zeros(3, 4)])
