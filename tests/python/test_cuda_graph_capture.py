"""seam under CUDA graph capture (torch.cuda.graph): a captured run allocates nothing of seam's (its
intermediates and workspaces come from memory torch's allocator gives the graph) and does not synchronize
(an indexing op's error record is not waited for), so a fusion captures and replays with new inputs.
CUDA only."""

import pytest
import torch

import seam
from seam import FusionDefinition

pytestmark = pytest.mark.skipif(not (torch.cuda.is_available() and seam.cuda_available()),
                                reason="no GPU for seam and torch")


def _norm_linear_exp():
    """An RMS norm, a product (cuBLASLt, with its workspace) and a pointwise tail: intermediates between
    steps, which seam allocates outside a capture."""
    with FusionDefinition() as fd:
        x = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=seam.DataType.Float)
        w = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=seam.DataType.Float)
        ms = fd.ops.sum(fd.ops.mul(x, x), dims=[1], keepdim=True)
        normed = fd.ops.mul(x, fd.ops.rsqrt(fd.ops.add(fd.ops.div(ms, fd.define_scalar(64.0)),
                                                       fd.define_scalar(1e-6))))
        y = fd.ops.linear(normed, w)
        fd.add_output(fd.ops.tanh(y))
    return fd


def _eager(x, w):
    normed = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
    return torch.tanh(normed @ w.t())


def _capture(fn):
    """fn() captured into a CUDA graph after a warm-up on a side stream (as torch's docs do it)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = fn()
    return graph, out


def test_a_captured_fusion_replays_with_new_inputs():
    fd = _norm_linear_exp()
    x, w = torch.randn(48, 64, device="cuda"), torch.randn(40, 64, device="cuda") / 8
    graph, (out,) = _capture(lambda: fd.execute([x, w]))
    for seed in range(3):
        torch.manual_seed(seed)
        x.copy_(torch.randn_like(x))
        w.copy_(torch.randn_like(w) / 8)
        graph.replay()
        torch.testing.assert_close(out, _eager(x, w), rtol=2e-3, atol=2e-3)


def test_a_captured_indexing_fusion_does_not_synchronize():
    """index_select checks its indices on the device and, outside a capture, waits for the record: under
    capture that synchronization would invalidate the graph, so it is left out."""
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=seam.DataType.Float)
        i = fd.define_tensor(shape=[-1], contiguity=[True], dtype=seam.DataType.Int)
        fd.add_output(fd.ops.exp(fd.ops.index_select(fd.ops.mul(t, t), i, 0)))
    t = torch.randn(16, 8, device="cuda")
    index = torch.tensor([3, 0, 15, 7, 7], device="cuda")
    graph, (out,) = _capture(lambda: fd.execute([t, index]))
    index.copy_(torch.tensor([1, 2, 3, 4, 5], device="cuda"))
    t.copy_(torch.randn_like(t))
    graph.replay()
    torch.testing.assert_close(out, torch.exp((t * t)[index]), rtol=1e-5, atol=1e-6)


def test_a_run_under_capture_without_scratch_is_refused():
    """The executable itself refuses to allocate on a stream being captured: a caller of the C++ API that
    passes no scratch memory gets a clear error, not a graph that holds seam's pooled memory."""
    fd = _norm_linear_exp()
    x, w = torch.randn(8, 64, device="cuda"), torch.randn(4, 64, device="cuda")
    fd.execute([x, w])
    spec = fd._last
    out = torch.empty(8, 4, device="cuda")
    graph = torch.cuda.CUDAGraph()
    with pytest.raises(Exception, match="being captured"):
        with torch.cuda.graph(graph):
            stream = torch.cuda.current_stream().cuda_stream
            spec._runner.run([x.data_ptr(), w.data_ptr()], [out.data_ptr()], stream)
