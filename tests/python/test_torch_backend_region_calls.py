"""A region's call: keyed by its signature (dtype, shape, strides, device, negative bit), it runs the
specialization compiled for that signature directly (fusion_builder.py), profiled inside a PythonProfiler."""

import torch

import seam.torch_backend as tb
from seam.profile import PythonProfiler
from torch_backend_helpers import STRICT, assert_matches, seam_run


def _fn(x, w):
    return (x * w + 1.0).relu()


def _region(gm):
    regions = [m for m in gm.modules() if isinstance(m, tb.runtime.SeamRegion)]
    assert len(regions) == 1
    return regions[0]


def test_a_negative_view_runs_as_its_resolved_values():
    """PyTorch's negative bit: the memory holds the negated values. A call with such a view of the layout
    an earlier call compiled for must not run that specialization on the memory as it is."""
    x, w = torch.randn(4, 8), torch.randn(8)
    (out,), gm = seam_run(_fn, x, w)
    assert_matches(out, _fn(x, w))
    region = _region(gm)
    y = torch.randn(4, 8)
    negative = torch._neg_view(y)  # the strides of x, the values of -y
    assert negative.is_neg() and negative.stride() == x.stride()
    assert_matches(region(negative, w), _fn(-y, w))
    assert_matches(region(negative, w), _fn(-y, w))  # the signature seen: the same way
    assert_matches(region(y, w), _fn(y, w))  # the plain signature still runs as plain memory


def test_a_negative_view_of_another_layout_is_read_through_its_copy():
    z = torch.randn(4, 8, dtype=torch.complex64)
    x, w = z.conj().imag, torch.randn(8)  # strides (16, 2), negative bit set
    assert x.is_neg()
    (out,), gm = seam_run(_fn, x, w)
    assert_matches(out, _fn(x.resolve_neg(), w))
    assert tb.STATS["regions_in_seam"] > 0


def test_calls_of_a_seen_signature_compile_nothing(monkeypatch):
    import seam.runner

    x, w = torch.randn(4, 8), torch.randn(8)
    (_,), gm = seam_run(_fn, x, w)
    calls = []
    real_compile = seam.runner.native.compile
    monkeypatch.setattr(seam.runner.native, "compile", lambda *a, **k: calls.append(a) or real_compile(*a, **k))
    before = tb.STATS["regions_in_seam"]
    for _ in range(3):
        x = torch.randn(4, 8)
        assert_matches(gm(x, w), _fn(x, w))
    assert calls == [] and tb.STATS["regions_in_seam"] == before + 3


def test_a_region_run_inside_a_python_profiler_is_profiled():
    x, w = torch.randn(4, 8), torch.randn(8)
    gm = tb.compile_aten_graph(torch.fx.experimental.proxy_tensor.make_fx(_fn)(x, w), [x, w], STRICT)
    with PythonProfiler() as profiler:
        out = gm(x, w)
    assert_matches(out if isinstance(out, torch.Tensor) else out[0], _fn(x, w))
    profile = profiler.profile
    assert profile.timing == "host" and profile.kernel_profiles
    assert profile.fusion_id == _region(gm)._cache[tb.runtime._signature((x, w))].fusion.id()
