#!/usr/bin/env bash
# The Python frontend on a GPU machine: builds seam's extension module against this machine's Python and
# PyTorch (pybind11 from pip or the system), then runs the pytest suite on CUDA tensors (CPU tensors too
# with SEAM_TEST_DEVICES=cpu,cuda; CI covers them) and the RoPE example (python/examples/rope.py) on the
# GPU. scripts/gpu_check.sh run calls it. SEAM_PYTHON_BENCH=1 also runs bench/python_overhead.py: the RoPE
# rows next to torch.compile (per-call wall - GPU time), new processes on one disk cache (--cold) and the
# frontend's own per-call cost on CPU tensors (--cpu).
#   scripts/gpu_python.sh [PYTHON]     (default: python3 on PATH)
set -uo pipefail
cd "$(dirname "$0")/.."
py="$(command -v "${1:-python3}")" || { echo "gpu_python: no ${1:-python3}"; exit 2; }
command -v cmake >/dev/null || { echo "gpu_python: cmake is needed to build the module"; exit 2; }
"$py" -c "import torch, pytest" || { echo "gpu_python: $py needs torch and pytest"; exit 2; }
mkdir -p build-python
log=build-python/build.log
# The module must share PyTorch's C++ runtime (libstdc++.so.6): a toolchain that links libstdc++
# statically (the GPU machine's $CXX in /opt/gcc does) makes two runtimes in one process, and the
# module crashes in the first stream it formats. The system's g++ links it dynamically.
[[ -x /usr/bin/g++ ]] && export CXX=/usr/bin/g++ CC=/usr/bin/gcc
cmake -S . -B build-python -DCMAKE_BUILD_TYPE=Release -DSEAM_BUILD_TESTS=OFF -DPython_EXECUTABLE="$py" > "$log" 2>&1 &&
  cmake --build build-python -j"$(nproc)" --target seam_python >> "$log" 2>&1
rc=$?
if ((rc)); then
  tail -n 30 "$log"
  echo "gpu_python: building the module failed"
  exit "$rc"
fi
rc=0
PYTHONPATH=python SEAM_TEST_DEVICES="${SEAM_TEST_DEVICES:-cuda}" "$py" -m pytest -q -p no:cacheprovider -rs tests/python || rc=1
PYTHONPATH=python "$py" python/examples/rope.py || rc=1
if [[ -n "${SEAM_PYTHON_BENCH:-}" ]]; then
  PYTHONPATH=python "$py" bench/python_overhead.py || rc=1
  PYTHONPATH=python "$py" bench/python_overhead.py --cold --configs W1,W3 || rc=1
  PYTHONPATH=python "$py" bench/python_overhead.py --cpu || rc=1
  PYTHONPATH=python "$py" bench/python_overhead.py --pieces || rc=1
fi
# nvFuser's own frontend tests as a compatibility yardstick, from a copy outside the repository:
# SEAM_NVFUSER_TESTS=DIR holds NVIDIA/Fuser's tests/ (the legacy DIR/tests/python/test_python_frontend.py
# and/or the direct DIR/tests/python/direct/ with DIR/tests/python/direct_utils/) and, in DIR/shims,
# stand-ins for test-only packages this machine lacks. Whichever suites are there run; their failures do
# not fail this script.
if [[ -n "${SEAM_NVFUSER_TESTS:-}" ]]; then
  nv="$(cd "$SEAM_NVFUSER_TESTS" && pwd)"
  suites=()
  [[ -f "$nv/tests/python/test_python_frontend.py" ]] && suites+=(python/test_python_frontend.py)
  for f in test_python_frontend.py test_repro.py test_high_complexity.py test_matmul.py; do
    [[ -f "$nv/tests/python/direct/$f" ]] && suites+=("python/direct/$f")
  done
  for suite in "${suites[@]}"; do
    echo "== nvFuser's $suite"
    (cd "$nv/tests" && PYTHONPATH="$OLDPWD/python:.:$nv/shims" timeout "${SEAM_NVFUSER_TIMEOUT:-300}" \
      "$py" -m pytest -q -p no:cacheprovider -rf --tb=line "$suite") |
      tail -n "${SEAM_NVFUSER_TAIL:-400}"
  done
fi
exit "$rc"
