#!/usr/bin/env bash
# The main job from Python: builds seam's extension module, then runs the Thunder-style QKV split + RoPE
# as an nvFuser FusionDefinition (python/examples/rope.py): one kernel, on the GPU when there is one,
# else on seam's host backend, checked against PyTorch eager.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh build python
scripts/build.sh build -DSEAM_BUILD_TESTS=OFF
py="$(sed -n 's/^SEAM_PYTHON_EXECUTABLE:INTERNAL=//p' build/CMakeCache.txt)"
[[ -n "$py" ]] || { echo "demo_python: the build found no Python with pybind11 (scripts/install_deps.sh)"; exit 1; }
PYTHONPATH=python "$py" python/examples/rope.py "$@"
