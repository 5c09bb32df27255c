"""Shape and view ops, creation ops and matrix products against torch eager."""

import pytest
import torch

from conftest import close, make
from seam import DataType, FusionDefinition


def one_input(x, body, device, **define):
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1] * x.dim(), contiguity=[True] * x.dim(),
                             dtype=define.get("dtype", DataType.Float))
        out = body(fd, t)
        for o in out if isinstance(out, tuple) else (out,):
            fd.add_output(o)
    return fd.execute([x.to(device)])


def test_broadcast_in_dim(device):
    x = make((3, 4))
    out, = one_input(x, lambda fd, t: fd.ops.broadcast_in_dim(t, shape=[2, 3, 5, 4], broadcast_dims=[1, 3]), device)
    close(out, x[None, :, None, :].expand(2, 3, 5, 4))


def test_broadcast_in_dim_expands_size_one_dims(device):
    x = make((1, 4))
    out, = one_input(x, lambda fd, t: fd.ops.broadcast_in_dim(t, [6, 4], [0, 1]), device)
    close(out, x.expand(6, 4))


def test_broadcast_in_dim_with_symbolic_sizes(device):
    x, y = make((3,)), make((5, 3))
    with FusionDefinition() as fd:
        a = fd.define_tensor([-1], [True])
        b = fd.define_tensor([-1, -1], [True, True])
        fd.add_output(fd.ops.add(fd.ops.broadcast_in_dim(a, b.shape(), [1]), b))
        fd.add_output(fd.ops.broadcast_in_dim(a, [b.size(0), a.size(0)], [1]))
    outs = fd.execute([x.to(device), y.to(device)])
    close(outs[0], x + y)
    close(outs[1], x.expand(5, 3))


def test_broadcast_and_expand(device):
    x = make((3,))
    out, = one_input(x, lambda fd, t: fd.ops.expand(fd.ops.broadcast(t, [True, False, True]), [2, -1, 4]),
                     device)
    close(out, x[None, :, None].expand(2, 3, 4))


@pytest.mark.parametrize("new_shape", [[6, 4], [-1, 2], [2, 3, 4], [24]])
def test_reshape(new_shape, device):
    x = make((2, 3, 4))
    out, = one_input(x, lambda fd, t: fd.ops.reshape(t, new_shape=new_shape), device)
    close(out, x.reshape(new_shape))


def test_reshape_legacy_form_and_scalars(device):
    x = make((2, 3, 4))
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1, -1], [True, True, True])
        fd.add_output(fd.ops.reshape(t, [2, 3, 4], [6, 4]))
        fd.add_output(fd.ops.reshape(t, [fd.ops.mul(t.size(0), t.size(1)), t.size(2)]))
    outs = fd.execute([x.to(device)])
    close(outs[0], x.reshape(6, 4))
    close(outs[1], x.reshape(6, 4))


def test_permute_and_squeeze(device):
    x = make((2, 1, 3, 1))
    outs = one_input(x, lambda fd, t: (fd.ops.permute(t, [2, 0, 3, 1]), fd.ops.squeeze(t, [1, -1])), device)
    close(outs[0], x.permute(2, 0, 3, 1))
    close(outs[1], x.squeeze(3).squeeze(1))


@pytest.mark.parametrize("starts,ends,steps", [([0, 1], [3, 4], None), ([-2, 0], [100, -1], [1, 2]),
                                               ([1, 2], [1, 5], [1, 1]), ([0, 0], [4, 5], [2, 3])])
def test_slice(starts, ends, steps, device):
    x = make((4, 5))
    out, = one_input(x, lambda fd, t: fd.ops.slice(t, start_indices=starts, end_indices=ends, strides=steps), device)
    steps = steps or [1, 1]
    close(out, x[starts[0]:ends[0]:steps[0], starts[1]:ends[1]:steps[1]])


def test_slice_manual_normalization_rejects_unnormalized():
    x = make((4, 5))
    with pytest.raises(ValueError, match="manual_normalization"):
        one_input(x, lambda fd, t: fd.ops.slice(t, [-1, 0], [4, 5], manual_normalization=1), "cpu")


@pytest.mark.parametrize("widths,value", [([1, 2], None), ([0, 1, 2, 0], 3.5), ([-1, 1], 0.0)])
def test_pad(widths, value, device):
    x = make((3, 4))

    def body(fd, t):
        return fd.ops.pad(t, widths, fd.define_scalar(value) if value is not None else None)

    out, = one_input(x, body, device)
    close(out, torch.nn.functional.pad(x, widths, value=value or 0.0))


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cat(dim, device):
    x, y, z = make((2, 3), seed=1), make((2, 3), seed=2), make((2, 3), seed=3)
    with FusionDefinition() as fd:
        ts = [fd.define_tensor([-1, -1], [True, True]) for _ in range(3)]
        fd.add_output(fd.ops.cat(ts, dim))
    close(fd.execute([t.to(device) for t in (x, y, z)])[0], torch.cat([x, y, z], dim))


def test_cat_with_empty_input(device):
    x, y = make((2, 3)), torch.empty((0, 3))
    with FusionDefinition() as fd:
        a = fd.define_tensor([-1, -1], [True, True])
        b = fd.define_tensor([-1, -1], [True, True])
        fd.add_output(fd.ops.cat([a, b], dim=0))
    close(fd.execute([x.to(device), y.to(device)])[0], torch.cat([x, y]))


def test_full_iota_triu(device):
    with FusionDefinition() as fd:
        fd.add_output(fd.ops.full(shape=[2, 3], fill_value=fd.define_scalar(1.5), dtype=DataType.Float))
        fd.add_output(fd.ops.iota(5, fd.define_scalar(2), fd.define_scalar(3), DataType.Int))
        fd.add_output(fd.ops.iota(4, 0.5, 0.25, dtype=DataType.Float))
    outs = fd.execute([], device=device)
    close(outs[0], torch.full((2, 3), 1.5))
    close(outs[1], torch.arange(2, 17, 3))
    close(outs[2], torch.arange(4) * 0.25 + 0.5)
    x = make((2, 4, 5))
    for k in (-1, 0, 2):
        out, = one_input(x, lambda fd, t: fd.ops.triu(t, k), device)
        close(out, torch.triu(x, k))


@pytest.mark.parametrize("a_shape,b_shape", [((3, 4), (4, 5)), ((2, 3, 4), (4, 5)), ((4,), (4, 5)),
                                             ((3, 4), (4,)), ((2, 1, 3, 4), (5, 4, 2))])
def test_matmul(a_shape, b_shape, device):
    a, b = make(a_shape, seed=1), make(b_shape, seed=2)
    with FusionDefinition() as fd:
        x = fd.define_tensor([-1] * len(a_shape), [True] * len(a_shape))
        y = fd.define_tensor([-1] * len(b_shape), [True] * len(b_shape))
        fd.add_output(fd.ops.matmul(x, y))
    torch.testing.assert_close(fd.execute([a.to(device), b.to(device)])[0].cpu(), a @ b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("bias", [False, True])
def test_linear(bias, device):
    x, w, b = make((2, 3, 4), seed=1), make((5, 4), seed=2), make((5,), seed=3)
    with FusionDefinition() as fd:
        tx = fd.define_tensor([-1, -1, -1], [True, True, True])
        tw = fd.define_tensor([-1, -1], [True, True])
        tb = fd.define_tensor([-1], [True]) if bias else None
        fd.add_output(fd.ops.linear(tx, tw, tb))
    ins = [x, w] + ([b] if bias else [])
    ref = torch.nn.functional.linear(x, w, b if bias else None)
    torch.testing.assert_close(fd.execute([t.to(device) for t in ins])[0].cpu(), ref, rtol=1e-4, atol=1e-4)


def test_stride_order_output(device):
    x = make((2, 3, 4))
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1, -1], [True, True, True])
        fd.add_output(fd.ops.stride_order(fd.ops.exp(t), [0, 1, 2]))  # dim 0 innermost
        fd.add_output(fd.ops.exp(t), stride_order=[1, 2, 0])
    outs = fd.execute([x.to(device)])
    close(outs[0], x.exp())
    assert outs[0].stride() == (1, 2, 6)
    close(outs[1], x.exp())
    assert outs[1].stride() == (4, 8, 1)


def test_size_shape_at_and_vectors(device):
    x = make((3, 4))
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1], [True, True])
        v = fd.define_vector([t.size(1), 1, t.shape()[0]], dtype=DataType.Int)
        fd.add_output(fd.ops.broadcast_in_dim(t, v, [2, 0]))
    close(fd.execute([x.to(device)])[0], x.t()[:, None, :])
