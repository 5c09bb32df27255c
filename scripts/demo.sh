#!/usr/bin/env bash
# The main job: a small Llama-style model's training step through seam's torch backend, next to PyTorch
# eager (python/examples/llama_train_step.py): loss and gradients compared, the regions and kernels seam
# made, the step time of each. On the GPU when there is one, else on seam's host backend. Installs what it
# needs (CMake, g++, Python headers, pybind11, Debian's PyTorch), then builds only the Python module.
# Arguments go to the example (--layers, --dim, --seq, --steps, --cpu). The RoPE fusion on its own:
# scripts/demo_rope.sh (the C++ tool) and scripts/demo_python.sh (nvFuser's Python API).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh build python
log="$(mktemp -t seam-demo-build.XXXXXX.log)"
echo "demo: building seam's Python module (log: $log)"
start=$SECONDS
if ! { cmake -S . -B build -DCMAKE_BUILD_TYPE="${SEAM_BUILD_TYPE:-Release}" -DSEAM_BUILD_TESTS=OFF &&
  cmake --build build -j"$(nproc)" --target seam_python; } >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  echo "demo: the build failed (full log: $log)" >&2
  exit 1
fi
py="$(sed -n 's/^SEAM_PYTHON_EXECUTABLE:INTERNAL=//p' build/CMakeCache.txt)"
[[ -n "$py" ]] || { echo "demo: the build found no Python with pybind11 (scripts/install_deps.sh python)" >&2; exit 1; }
echo "demo: built in $((SECONDS - start)) s for $py"
echo
PYTHONPATH=python "$py" python/examples/llama_train_step.py "$@"
