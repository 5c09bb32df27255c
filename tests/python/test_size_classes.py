"""A new size of a known size class compiles nothing (docs/CODEGEN.md, "Size classes"): a definition with
symbolic extents, run as a new user would, first at one size and then at new row counts and row lengths.
The scenario runs in a child process with an empty kernel cache of its own, so that what it reports is
what a first run on a fresh machine does (the disk cache would hide a recompile)."""

import json
import os
import subprocess
import sys
import tempfile

import pytest

_SCENARIO = r"""
import json, sys
import torch
from nvfuser import FusionDefinition, DataType

device = sys.argv[1]
with FusionDefinition() as fd:
    x = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
    s = fd.ops.sum(fd.ops.mul(x, x), dims=[1], keepdim=True)
    fd.add_output(fd.ops.mul(fd.ops.exp(x), fd.ops.rsqrt(s)))

report = []
for m, n in json.loads(sys.argv[2]):
    t = torch.randn(m, n, device=device)
    out, = fd.execute([t])
    expected = torch.exp(t) * torch.rsqrt((t * t).sum(1, keepdim=True))
    info = fd.last_compile_info()
    report.append({"m": m, "n": n, "module": info["module"], "reused": info["reused"],
                   "stages_run": info["stages_run"],
                   "close": bool(torch.allclose(out, expected, rtol=1e-4, atol=1e-6))})
print(json.dumps(report))
"""

_PYTHON_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python")


def _run_scenario(device, sizes):
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, SEAM_CACHE_DIR=cache,
                   PYTHONPATH=os.pathsep.join([_PYTHON_DIR, os.environ.get("PYTHONPATH", "")]))
        done = subprocess.run([sys.executable, "-c", _SCENARIO, device, json.dumps(sizes)], env=env,
                              capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_new_row_counts_and_lengths_of_a_class_compile_nothing(device):
    # 4 x 128 first; then five new row counts, one row among them; then row lengths with the same row
    # layout (vectors of 4 floats, a thread per vector: 25 to 32 vectors a row). Rows of 1000 floats take
    # another layout (more threads per row): one compile, then its sizes load too.
    sizes = [[4, 128], [1, 128], [7, 128], [64, 128], [300, 128], [1000, 128], [4, 100], [9, 112], [1, 124],
             [4, 1000], [33, 1000], [2, 996]]
    report = _run_scenario(device, sizes)
    assert all(r["close"] for r in report), report
    compiled = [(r["m"], r["n"]) for r in report if r["module"] != "loaded"]
    assert compiled == [(4, 128), (4, 1000)], report
    assert report[0]["module"] == "compiled", report[0]
    # Of the first size's class (more than one row): its segmentation is reused, not searched again.
    for r in report[1:]:
        if r["m"] > 1:
            assert r["reused"] == ["segment"], r
            assert "segment" not in r["stages_run"], r
