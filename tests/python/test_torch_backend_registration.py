"""backend="seam" registration: with Dynamo, on import seam (at once when Dynamo is loaded, else when it
gets imported, through a one-shot import hook); without Dynamo (torch 1.13), nothing is installed."""

import subprocess
import sys
import textwrap

import pytest

from seam.torch_backend.registration import DYNAMO, AfterImport, has_dynamo


@pytest.fixture
def hooked_package(tmp_path, monkeypatch):
    """make(name, value): a package `name` on the path whose VALUE is `value`, with an AfterImport hook
    that appends VALUE to the returned list once the package runs; removed afterwards."""
    made = []

    def make(name, value):
        pkg = tmp_path / name
        pkg.mkdir()
        (pkg / "__init__.py").write_text(f"VALUE = {value}\n")
        monkeypatch.syspath_prepend(str(tmp_path))
        calls = []
        hook = AfterImport(name, lambda: calls.append(sys.modules[name].VALUE))
        sys.meta_path.insert(0, hook)
        made.append((name, hook))
        return hook, calls

    yield make
    for name, hook in made:
        if hook in sys.meta_path:
            sys.meta_path.remove(hook)
        sys.modules.pop(name, None)


def test_after_import_runs_the_callback_once(hooked_package):
    hook, calls = hooked_package("seam_fake_dynamo_pkg", 41)
    import seam_fake_dynamo_pkg
    assert calls == [41]
    assert hook not in sys.meta_path  # one shot
    assert type(seam_fake_dynamo_pkg.__loader__).__name__ == "SourceFileLoader"  # its own loader back


def test_looking_the_module_up_does_not_use_up_the_hook(hooked_package):
    """importlib.util.find_spec (has_dynamo, a test's skip condition) looks a module up without importing
    it: the hook must still run when the module is imported later (it did not, and torch.compile met
    InvalidBackend in a pytest process)."""
    import importlib.util

    hook, calls = hooked_package("seam_fake_pkg_three", 7)
    assert importlib.util.find_spec("seam_fake_pkg_three") is not None
    assert calls == [] and hook in sys.meta_path
    import seam_fake_pkg_three  # noqa: F401
    assert calls == [7] and hook not in sys.meta_path


def _fake_registry(monkeypatch, modern):
    """torch._dynamo.backends.registry as torch 2.1+ (_BACKENDS: name -> entry point or None, and
    _COMPILER_FNS) or torch 2.0 (_BACKENDS: name -> function) keep it, with their duplicate check."""
    import types

    registry = types.ModuleType("torch._dynamo.backends.registry")
    registry._BACKENDS = {}
    if modern:
        registry._COMPILER_FNS = {}

    def register_backend(compiler_fn=None, name=None, tags=()):
        functions = registry._COMPILER_FNS if modern else registry._BACKENDS
        assert name not in functions, f"duplicate name: {name}"
        if modern:
            registry._BACKENDS.setdefault(name, None)
        functions[name] = compiler_fn
        return compiler_fn

    registry.register_backend = register_backend
    backends = types.ModuleType("torch._dynamo.backends")
    backends.registry = registry
    monkeypatch.setitem(sys.modules, "torch._dynamo", types.ModuleType("torch._dynamo"))
    monkeypatch.setitem(sys.modules, "torch._dynamo.backends", backends)
    monkeypatch.setitem(sys.modules, "torch._dynamo.backends.registry", registry)
    return registry


@pytest.mark.parametrize("modern", [True, False], ids=["torch2.1+", "torch2.0"])
def test_register_now_registers_once(monkeypatch, modern):
    from seam.torch_backend import registration

    registry = _fake_registry(monkeypatch, modern)
    assert registration.register_now("seam")
    functions = registry._COMPILER_FNS if modern else registry._BACKENDS
    assert functions["seam"] is registration.seam
    assert registration.register_now("seam")  # again: no duplicate-name error
    assert functions["seam"] is registration.seam


def test_register_now_leaves_a_discovered_entry_point_to_dynamo(monkeypatch):
    """Dynamo (2.1+) discovers the entry point, then loads it on first use, which imports seam, which
    registers: Dynamo's registration of the loaded entry point must not then fail as a duplicate."""
    from seam.torch_backend import registration

    registry = _fake_registry(monkeypatch, modern=True)
    registry._BACKENDS["seam"] = "an entry point"
    assert registration.register_now("seam")
    assert "seam" not in registry._COMPILER_FNS
    registry.register_backend(compiler_fn=registration.seam, name="seam")  # what lookup_backend does


def test_a_failing_callback_does_not_break_the_import(tmp_path, monkeypatch):
    pkg = tmp_path / "seam_fake_pkg_two"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("OK = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))

    def boom():
        raise RuntimeError("no")

    sys.meta_path.insert(0, AfterImport("seam_fake_pkg_two", boom))
    try:
        import seam_fake_pkg_two
        assert seam_fake_pkg_two.OK
    finally:
        sys.modules.pop("seam_fake_pkg_two", None)


def _run(code):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=300)


@pytest.mark.skipif(has_dynamo(), reason="this torch has Dynamo")
def test_without_dynamo_import_seam_installs_nothing():
    out = _run("""
        import sys, seam
        from seam.torch_backend.registration import AfterImport
        print(any(isinstance(f, AfterImport) for f in sys.meta_path), "torch._dynamo" in sys.modules)
    """)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False"]


@pytest.mark.skipif(not has_dynamo(), reason="this torch has no Dynamo (torch 1.13)")
def test_with_dynamo_the_backend_is_listed():
    out = _run(f"""
        import sys, seam
        print("{DYNAMO}" in sys.modules)
        import torch._dynamo
        print("seam" in torch._dynamo.list_backends(exclude_tags=()))
    """)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split()
    assert lines[-1] == "True", out.stdout


def _mlp(as_tuple=False):
    """RMSNorm, two linears and SiLU, reduced to a scalar loss."""
    import torch

    class Mlp(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.up, self.down = torch.nn.Linear(8, 16), torch.nn.Linear(16, 8)

        def forward(self, x):
            h = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
            loss = self.down(torch.nn.functional.silu(self.up(h))).square().mean()
            return (loss,) if as_tuple else loss

    return Mlp()


class _FakeDynamoCommon:
    """torch._dynamo.backends.common for a torch without Dynamo: aot_autograd on functorch's
    aot_module_simplified, so that the backend function itself runs here as Dynamo would call it."""

    @staticmethod
    def aot_autograd(**kwargs):
        def compile_fx_graph(gm, example_inputs):
            from functorch.compile import aot_module_simplified

            return aot_module_simplified(gm, **kwargs)

        return compile_fx_graph


@pytest.mark.skipif(has_dynamo(), reason="Dynamo's own aot_autograd is tested on the GPU machine")
def test_the_backend_function_through_aot_autograd(monkeypatch):
    import types

    import torch

    import seam.torch_backend as tb

    fake = types.ModuleType("torch._dynamo.backends.common")
    fake.aot_autograd = _FakeDynamoCommon.aot_autograd
    for name in ("torch._dynamo", "torch._dynamo.backends"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "torch._dynamo.backends.common", fake)

    torch.manual_seed(0)
    model, x = _mlp(as_tuple=True), torch.randn(4, 8)  # Dynamo's graphs return tuples
    model(x)[0].backward()
    expected = {n: p.grad.clone() for n, p in model.named_parameters()}
    model.zero_grad()
    before = tb.STATS["regions_in_seam"]
    compiled = tb.seam_backend(torch.fx.symbolic_trace(model), [x], options={"fallback": False})
    compiled(x)[0].backward()
    assert tb.STATS["regions_in_seam"] >= before + 2  # the forward and the backward graph
    for n, p in model.named_parameters():
        torch.testing.assert_close(p.grad, expected[n], rtol=1e-4, atol=1e-6)
    with pytest.raises(ValueError, match="unknown option"):
        tb.seam_backend(torch.fx.symbolic_trace(model), [x], options={"matmull": False})


@pytest.mark.skipif(not has_dynamo(), reason="this torch has no Dynamo (torch 1.13)")
def test_torch_compile_backend_seam_on_cpu():
    """torch.compile(backend="seam") through Dynamo itself, forward and backward; a second batch size
    makes Dynamo recompile with symbolic sizes, which seam specializes per signature."""
    import torch

    import seam  # noqa: F401  (registers the backend)
    import seam.torch_backend as tb

    torch.manual_seed(0)
    model = _mlp()
    compiled = torch.compile(model, backend="seam", options={"fallback": False})
    before = tb.STATS["regions_in_seam"]
    for batch in (4, 6, 9):
        _step_matches_eager(model, compiled, torch.randn(batch, 8))
    assert tb.STATS["regions_in_seam"] > before


def _step_matches_eager(model, compiled, x):
    """One forward and backward of `compiled` (the model compiled) against the model in eager: the loss and
    every parameter's gradient."""
    import torch

    model.zero_grad()
    model(x).backward()
    expected = {n: p.grad.clone() for n, p in model.named_parameters()}
    model.zero_grad()
    loss = compiled(x)
    loss.backward()
    torch.testing.assert_close(loss, model(x), rtol=1e-5, atol=1e-6)
    for n, p in model.named_parameters():
        torch.testing.assert_close(p.grad, expected[n], rtol=1e-4, atol=1e-6)


def test_entry_point_names_the_backend():
    """torch.compile finds backend="seam" through the torch_dynamo_backends entry point of
    python/seam-<version>.dist-info, whether or not `import seam` ran first (Dynamo reads entry points
    when a name is not registered); its version is seam's own."""
    import importlib.metadata as metadata

    import seam
    from seam.torch_backend.backend import seam_backend

    everything = metadata.entry_points()
    found = (everything.select(group="torch_dynamo_backends") if hasattr(everything, "select")
             else everything.get("torch_dynamo_backends", []))
    entry = [e for e in found if e.name == "seam"]
    assert len(entry) == 1 and entry[0].load() is seam_backend
    assert metadata.version("seam") == str(seam.version())


@pytest.mark.skipif(not has_dynamo(), reason="this torch has no Dynamo (torch 1.13)")
def test_reduce_overhead_on_cpu_runs_uncaptured():
    """mode="reduce-overhead" goes through torch's CUDA graph trees, whose checks leave a graph of CPU
    tensors uncaptured (counted as a skip, as under Inductor): the step still runs seam's regions."""
    import torch
    from torch._dynamo.utils import counters

    import seam  # noqa: F401  (registers the backend)
    import seam.torch_backend as tb

    torch._dynamo.reset()
    counters.clear()
    torch.manual_seed(0)
    model = _mlp()
    compiled = torch.compile(model, backend="seam", mode="reduce-overhead")
    before = tb.STATS["regions_in_seam"]
    _step_matches_eager(model, compiled, torch.randn(4, 8))
    assert tb.STATS["regions_in_seam"] > before
    assert counters["inductor"]["cudagraph_skips"] >= 1, dict(counters["inductor"])
