"""backend="seam" registration: with Dynamo, on import seam (at once when Dynamo is loaded, else when it
gets imported, through a one-shot import hook); without Dynamo (torch 1.13), nothing is installed."""

import subprocess
import sys
import textwrap

import pytest

from seam.torch_backend.registration import DYNAMO, AfterImport, has_dynamo


def test_after_import_runs_the_callback_once(tmp_path, monkeypatch):
    pkg = tmp_path / "seam_fake_dynamo_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("VALUE = 41\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    calls = []
    hook = AfterImport("seam_fake_dynamo_pkg", lambda: calls.append(sys.modules["seam_fake_dynamo_pkg"].VALUE))
    sys.meta_path.insert(0, hook)
    try:
        import seam_fake_dynamo_pkg
        assert calls == [41]
        assert hook not in sys.meta_path  # one shot
        assert type(seam_fake_dynamo_pkg.__loader__).__name__ == "SourceFileLoader"  # its own loader back
    finally:
        if hook in sys.meta_path:
            sys.meta_path.remove(hook)
        sys.modules.pop("seam_fake_dynamo_pkg", None)


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
