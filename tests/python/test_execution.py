"""How execute() runs and who owns what: outputs are tensors torch allocates, outputs that view inputs are
views of them, alias_input updates the input, the cached fast path still checks every input, scalars
reach the fusion per call, and processes share seam's disk cache."""

import os
import subprocess
import sys
import textwrap

import pytest
import torch

from conftest import close, make
import seam
from seam import DataType, FusionDefinition


def storage_address(t):
    return t.untyped_storage().data_ptr() if hasattr(t, "untyped_storage") else t.storage().data_ptr()


def test_outputs_are_tensors_torch_allocates(device):
    x, y = make((5, 6)).to(device), make((5, 6), seed=1).to(device)
    with FusionDefinition() as fd:
        a = fd.define_tensor([-1, -1], [True, True])
        b = fd.define_tensor([-1, -1], [True, True])
        fd.add_output(fd.ops.add(a, b))
        fd.add_output(fd.ops.sum(fd.ops.mul(a, b), [1]))
    first = fd.execute([x, y])
    if device == "cuda":  # torch's caching allocator holds the outputs' memory (in one of its segments)
        segments = [(s["address"], s["address"] + s["total_size"]) for s in torch.cuda.memory_snapshot()]
        for out in first:
            assert any(lo <= out.data_ptr() < hi for lo, hi in segments), "an output torch did not allocate"
    second = fd.execute([x, y])
    for out in first:
        assert out._base is None and out.is_contiguous() and out.device == x.device
        assert storage_address(out) == out.data_ptr()  # the whole storage, owned by torch
    assert first[0].data_ptr() != second[0].data_ptr()  # every call returns new tensors
    close(first[0], x + y)
    close(first[1], (x * y).sum(1))
    close(second[0], x + y)


def test_outputs_that_view_inputs_share_their_storage(device):
    base = make((4, 6)).to(device)
    x = base[:, 1:5]  # a strided input: its own offset and strides
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1], [False, True])
        fd.add_output(fd.ops.permute(t, [1, 0]))
        fd.add_output(fd.ops.slice(t, [1, 0], [3, 4], [1, 1]))
        fd.add_output(t)
        e = fd.ops.exp(t)
        fd.add_output(e)
        fd.add_output(e)
    for _ in range(2):  # the first run and the cached one
        permuted, sliced, same, e1, e2 = fd.execute([x])
        for view, expected in ((permuted, x.t()), (sliced, x[1:3]), (same, x)):
            assert storage_address(view) == storage_address(base)
            assert view.data_ptr() == expected.data_ptr() and view.stride() == expected.stride()
            close(view, expected)
        close(e1, x.exp())
        assert e2 is e1  # one value added twice: one tensor
    base.add_(1)  # the views see the input's memory
    close(permuted, x.t())


def test_alias_input_updates_the_input_in_its_storage(device):
    acc = torch.zeros(3, 4, device=device)
    address = acc.data_ptr()
    x = make((3, 4)).to(device)
    with FusionDefinition() as fd:
        a = fd.define_tensor([-1, -1], [True, True])
        t = fd.define_tensor([-1, -1], [True, True])
        fd.add_output(fd.ops.add(a, t), alias_input=a)
    for calls in (1, 2, 3):
        assert fd.execute([acc, x]) == []
        assert acc.data_ptr() == address
        close(acc, calls * x)


def test_a_wrong_input_after_a_cached_signature_still_gets_its_message(device):
    x = make((4, 8)).to(device)
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, 8], [True, True], dtype=DataType.Float)
        s = fd.define_scalar(None, dtype=DataType.Int)
        fd.add_output(fd.ops.mul(t, s))
    for _ in range(3):
        close(fd.execute([x, 2])[0], 2 * x)
    with pytest.raises(ValueError, match=r"input 0 \(T0\): expected dtype torch.float32 .*got torch.float64"):
        fd.execute([x.double(), 2])
    with pytest.raises(ValueError, match="static extent 8, got 4"):
        fd.execute([x[:, :4].contiguous(), 2])
    with pytest.raises(ValueError, match="stride mismatch"):
        fd.execute([make((8, 4)).to(device).t(), 2])
    with pytest.raises(TypeError, match="integer scalar, got the float"):
        fd.execute([x, 2.0])
    with pytest.raises(ValueError, match="takes 2 inputs"):
        fd.execute([x])
    with pytest.raises(TypeError, match="must be a torch.Tensor"):
        fd.execute([2, 2])
    close(fd.execute([x, 3])[0], 3 * x)  # the scalar is a run-time input: same executable, new value
    assert FusionDefinition.__module__.startswith("seam")


def test_scalar_inputs_reach_the_cached_executable_per_call(device):
    x = make((3, 5)).to(device)
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1], [True, True])
        s = fd.define_scalar(None, dtype=DataType.Double)
        b = fd.define_scalar(None, dtype=DataType.Bool)
        fd.add_output(fd.ops.where(b, fd.ops.mul(t, s), t))
    fd.execute([x, 1.0, True])
    spec = fd._last
    for value, flag in ((0.5, True), (-2.0, True), (3.0, False)):
        close(fd.execute([x, value, flag])[0], x * value if flag else x)
        assert fd._last is spec


def test_run_into_refuses_buffers_that_overlap_an_input():
    x = make((4, 4))
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1], [True, True])
        fd.add_output(fd.ops.neg(t))
    fd.execute([x])
    runner = fd._last._runner
    with pytest.raises(seam.SeamError, match="overlaps input 0"):
        runner.run([x.data_ptr()], [x.data_ptr() + 4])
    with pytest.raises(seam.SeamError, match="takes 1 inputs, got 2"):
        runner.run([x.data_ptr(), x.data_ptr()], [0])


def test_two_processes_share_the_disk_cache(device, tmp_path):
    script = textwrap.dedent(f"""
        import torch
        from nvfuser import FusionDefinition, DataType
        with FusionDefinition() as fd:
            t = fd.define_tensor([-1, -1], [True, True], dtype=DataType.BFloat16)
            u = fd.ops.cast(fd.ops.mul(fd.ops.exp(t), t), DataType.BFloat16)
            fd.add_output(u)
        x = torch.linspace(-2, 2, 64 * 48).reshape(64, 48).bfloat16().to("{device}")
        for _ in range(3):
            out, = fd.execute([x])
        expected = (x.float().exp() * x.float()).bfloat16()
        torch.testing.assert_close(out.cpu(), expected.cpu(), rtol=8e-3, atol=8e-3)
        print("ok")
        """)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(seam.__file__)),
               SEAM_CACHE_DIR=str(tmp_path / "cache"))
    runs = [subprocess.Popen([sys.executable, "-W", "ignore", "-c", script], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=env) for _ in range(2)]
    for run in runs:
        out, err = run.communicate(timeout=600)
        assert run.returncode == 0 and out.strip() == "ok", err
    if device == "cuda":  # both found or wrote the kernels in the one cache directory
        assert any(files for _, _, files in os.walk(tmp_path / "cache"))
        again = subprocess.run([sys.executable, "-W", "ignore", "-c", script], capture_output=True, text=True,
                               env=env, timeout=600)
        assert again.returncode == 0 and again.stdout.strip() == "ok", again.stderr
