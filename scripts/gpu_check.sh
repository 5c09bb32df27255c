#!/usr/bin/env bash
# Everything that needs the GPU, in one go.
#
#   scripts/gpu_check.sh build [DIR]  # here (no GPU needed): Release build, binaries copied to gpu-bin/
#                                     # (DIR: copied from that Release build with tests instead)
#   scripts/gpu_check.sh run [quick]  # on the GPU machine, over a copy of the tree carrying gpu-bin/
#                                     # (SEAM_GPU_STEPS="smoke gpu_suite ..." runs only the steps named):
#                                     # smoke test, runtime tests, the GPU suite, the suite under
#                                     # compute-sanitizer memcheck, the RoPE benchmark (forward,
#                                     # backward, T sweep, code-generation variants) and the matrix
#                                     # products' benchmark, the reduction benchmark next to PyTorch
#                                     # (bench_reductions: bench/reductions_vs_torch.py over gpu-bin/seam;
#                                     # SEAM_REDUCTIONS_SWEEP=rmsnorm_fwd[,...] runs the sweep of those
#                                     # kinds instead of the set), the Python frontend's suite on CUDA
#                                     # tensors (scripts/gpu_python.sh builds the module there)
#   scripts/gpu_check.sh verify       # on the GPU machine, carrying gpu-bin/: the check every change to
#                                     # kernels ends with (docs/TESTING.md, "On the GPU"): the Python
#                                     # module built there, smoke and runtime tests, the whole GPU suite,
#                                     # memcheck over every kernel kind, pytest on CUDA tensors, RoPE quick
#                                     # rows and the reduction set (its largest shape per kind) next to
#                                     # torch.compile; one summary line
#                                     # per step (pass/fail, seconds); every step has its own time limit
#                                     # and appends its log to $OUT/verify.log as it runs (the module's
#                                     # build beside the suite, memcheck beside pytest: their own logs),
#                                     # so a cut run still brings
#                                     # back what finished. SEAM_GPU_STEPS="suite memcheck"
#                                     # runs only those steps.
#   scripts/gpu_check.sh report       # the short version for a tight GPU budget, few output files:
#                                     # GPU suite (quick) and memcheck, backward rows, then seam vs
#                                     # PyTorch on forward bs 2 and backward rows
#   scripts/gpu_check.sh investigate  # the sweep, ncu next to torch.compile, cold GQA backward compiles
#   scripts/gpu_check.sh probe [NAME] # bench/experiments/NAME.cu (default copy_probe): copy_probe, what a plain
#                                     # copy reaches per size; gather_probe, RoPE's memory pattern by hand
#   scripts/gpu_check.sh compare [forward|backward|t-sweep|quick|flush]
#                                     # seam next to PyTorch eager and torch.compile (bench/rope_vs_torch.py)
#
# On any Linux machine with an NVIDIA GPU, the driver and the CUDA toolkit at /usr/local/cuda (x86-64, like
# the build machine): copy the repository with gpu-bin/ there (or build there: `build` then `run`) and run
# `scripts/gpu_check.sh run`. Results go to $OUT when set (a folder a remote runner brings back), else to
# gpu-out/; the end of the output is a summary table.
set -uo pipefail
cd "$(dirname "$0")/.."
mode="${1:-}"

if [[ "$mode" == "build" ]]; then
  # `build DIR`: copy from an existing Release build with tests (scripts/test.sh's build/) instead.
  set -e
  dir="${2:-build-gpu}"
  if [[ -z "${2:-}" ]]; then
    scripts/install_deps.sh
    scripts/build.sh build-gpu
  fi
  rm -rf gpu-bin && mkdir -p gpu-bin
  cp "$dir"/tests/gpu/seam_gpu_smoke "$dir"/tests/gpu/seam_gpu_tests "$dir"/tests/seam_runtime_tests \
     "$dir"/bench/bench_rope_gpu "$dir"/bench/bench_matmul_gpu "$dir"/tools/seam gpu-bin/
  strip gpu-bin/* 2>/dev/null || true
  # The commit the binaries were built from (the GPU machine's copy of the tree may carry an older .git).
  echo "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!gpu-bin' || echo ' + local changes')" > gpu-bin/COMMIT
  du -sh gpu-bin
  exit 0
fi

# The GPU suite under compute-sanitizer memcheck, quick shapes: every kernel kind (pointwise and RoPE,
# row kernels persistent, streamed, peeled, over clusters, with outer reductions and rows loaded ahead,
# the training rows (cross-entropy gradients, normalization backwards peeled by columns),
# indexing and its out-of-range errors, random numbers, cuBLASLt steps and the kernels around them).
memcheck_suite() {
  SEAM_GPU_QUICK=1 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 gpu-bin/seam_gpu_tests \
    --gtest_filter='GpuSuite.*:GpuDeviceApi.*:GpuOuterReduction.*:GpuRowEdges.*:GpuTrainingRows.*:GpuMatmul.RandomFusionsAroundProducts:GpuMatmul.MisalignedInputsGetANarrowerPlan:-GpuSuite.RopeFullSizeSampledRows:GpuDeviceApi.BadInputsAreRejectedBeforeAnyLaunch'
}

# side_by_side N COMMAND...: COMMAND run N times at once with SHARD and SHARDS set (0..N-1, N), their logs
# following one another on standard output; fails when any of them does.
side_by_side() {
  local shards="$1" logs pids=() rc=0
  shift
  logs="$(mktemp -d)"
  for ((i = 0; i < shards; ++i)); do
    SHARD=$i SHARDS=$shards "$@" > "$logs/$i" 2>&1 &
    pids+=($!)
  done
  for ((i = 0; i < shards; ++i)); do
    wait "${pids[$i]}" || rc=1
    echo "----- shard $i of $shards -----"
    cat "$logs/$i"
  done
  return $rc
}

# The GPU suite as SEAM_GPU_SHARDS processes side by side (gtest's sharding: each takes every Nth test):
# most of its time is NVRTC compiling on the host, which one process cannot spread over 16 cores.
suite_shard() { GTEST_TOTAL_SHARDS=$SHARDS GTEST_SHARD_INDEX=$SHARD gpu-bin/seam_gpu_tests; }
sharded_suite() { side_by_side "${SEAM_GPU_SHARDS:-4}" suite_shard; }

# pytest on CUDA tensors as SEAM_PYTHON_SHARDS processes side by side, the test files dealt out in turn
# (the torch.compile files, the slowest, first).
pytest_shard() {
  local files=() i=0 mine=()
  mapfile -t files < <(ls tests/python/test_torch_backend_*.py; ls tests/python/test_*.py | grep -v test_torch_backend_)
  for f in "${files[@]}"; do
    ((i++ % SHARDS == SHARD)) && mine+=("$f")
  done
  echo "files: ${mine[*]}"
  PYTHONPATH=python SEAM_TEST_DEVICES=cuda python3 -m pytest -q -p no:cacheprovider "${mine[@]}"
}
sharded_pytest() { side_by_side "${SEAM_PYTHON_SHARDS:-3}" pytest_shard; }

# The Python module, built on the GPU machine against its Python and PyTorch with the system's g++
# (scripts/gpu_python.sh says why).
build_python_module() {
  [[ -x /usr/bin/g++ ]] && export CXX=/usr/bin/g++ CC=/usr/bin/gcc
  cmake -S . -B build-python -DCMAKE_BUILD_TYPE=Release -DSEAM_BUILD_TESTS=OFF -DPython_EXECUTABLE="$(command -v python3)" &&
    cmake --build build-python -j"$(nproc)" --target seam_python
}

# seam next to PyTorch eager and torch.compile on the reduction benchmark (bench/README.md): the set, or with
# SEAM_REDUCTIONS_SWEEP=KIND[,KIND] the sweep of those kinds (make_sweep.py); the table in the log, the raw
# rows in $out/bench_reductions.json. Cut at 570 s so that a 10-minute call still brings back its rows.
bench_reductions() {
  local extra=()
  if [[ -n "${SEAM_REDUCTIONS_SWEEP:-}" ]]; then
    local sweep
    sweep="$(mktemp -d)"
    python3 bench/reductions/make_sweep.py "$sweep" || return 1
    extra=(--sweep "$sweep" --only "$SEAM_REDUCTIONS_SWEEP")
  fi
  timeout 570 python3 bench/reductions_vs_torch.py --seam gpu-bin/seam --json-out "$out/bench_reductions.json" \
    "${extra[@]}"
}

# The modes that end in a short summary (report, investigate): fresh caches, logs apart from $out, then
# the GPU suite (quick) and memcheck, their results the first lines of $summary.
summary_mode_checks() {
  out="${OUT:-gpu-out}"
  logs="$(mktemp -d)"
  mkdir -p "$out"
  export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
  SEAM_CACHE_DIR="$(mktemp -d)"
  export SEAM_CACHE_DIR SEAM_FAILURE_DIR="$logs"
  summary="$out/summary.txt"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > "$summary" 2>&1
  SEAM_GPU_QUICK=1 gpu-bin/seam_gpu_tests > "$logs/suite.log" 2>&1
  echo "gpu suite (quick): rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$logs/suite.log" | tr '\n' ' ')" >> "$summary"
  memcheck_suite > "$logs/memcheck.log" 2>&1
  echo "memcheck: rc=$? $(grep 'ERROR SUMMARY' "$logs/memcheck.log")" >> "$summary"
}

if [[ "$mode" == "verify" ]]; then
  out="${OUT:-gpu-out}"
  mkdir -p "$out"
  export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
  SEAM_CACHE_DIR="$(mktemp -d)"
  failures="$(mktemp -d)"
  export SEAM_CACHE_DIR SEAM_FAILURE_DIR="$failures"
  export -f memcheck_suite build_python_module side_by_side suite_shard sharded_suite pytest_shard sharded_pytest
  log="$out/verify.log" summary="$out/summary.txt"
  : > "$log"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > "$summary" 2>&1
  echo "built from $(cat gpu-bin/COMMIT 2>/dev/null || echo 'an unknown commit'), $(date -u +%F' '%H:%M) UTC" >> "$summary"
  [[ -x gpu-bin/seam_gpu_tests ]] || { echo "verify: no gpu-bin/ (run scripts/gpu_check.sh build here, carry gpu-bin)" | tee -a "$summary"; exit 2; }
  failed=0
  vstep() {  # vstep NAME LIMIT_SECONDS COMMAND...: appends its log, one summary line
    local name="$1" limit="$2"
    shift 2
    [[ -z "${SEAM_GPU_STEPS:-}" || " $SEAM_GPU_STEPS " == *" $name "* ]] || return 0
    local start=$SECONDS
    echo "===== $name (limit ${limit} s) =====" >> "$log"
    timeout --kill-after=10 "$limit" "$@" >> "$log" 2>&1
    local rc=$?
    local verdict=pass
    ((rc == 0)) || { verdict="FAIL rc=$rc"; failed=1; }
    ((rc == 124 || rc == 137)) && verdict="TIMEOUT after ${limit} s"
    printf '%-12s %-22s %4d s\n' "$name" "$verdict" "$((SECONDS - start))" | tee -a "$summary"
  }
  # The module builds on the CPUs while the GPU suite runs (pytest needs it only after the suite).
  (log="$out/module.log" && : > "$log" && vstep module 240 bash -c build_python_module) &
  module=$!
  vstep smoke 60 gpu-bin/seam_gpu_smoke
  vstep runtime 60 gpu-bin/seam_runtime_tests
  vstep suite 150 bash -c sharded_suite
  wait "$module"
  # The quick suite (memcheck's shapes) alone, only when named: its time is what memcheck builds on.
  [[ " ${SEAM_GPU_STEPS:-} " == *" quick "* ]] && vstep quick 90 env SEAM_GPU_QUICK=1 gpu-bin/seam_gpu_tests
  # memcheck and pytest load the GPU lightly: side by side, each with its own log in $OUT.
  (log="$out/memcheck.log" && : > "$log" && vstep memcheck 240 bash -c memcheck_suite) &
  (log="$out/python.log" && : > "$log" &&
    vstep python 240 bash -c sharded_pytest) &
  wait
  vstep rope 120 gpu-bin/bench_rope_gpu --quick
  vstep reductions 200 python3 bench/reductions_vs_torch.py --seam gpu-bin/seam --iterations 20 --one-per-kind \
    --json-out "$out/reductions.json"
  [[ -n "$(ls -A "$failures")" ]] && tar czf "$out/failures.tgz" -C "$failures" .
  echo "== summary ==" && cat "$summary"
  grep -qE "FAIL|TIMEOUT" "$summary" && failed=1  # also the steps that ran side by side
  exit "$failed"
fi

if [[ "$mode" == "report" ]]; then
  summary_mode_checks
  gpu-bin/bench_rope_gpu --direction backward > "$out/bench_bwd.md" 2>&1
  echo "backward bench: rc=$?" >> "$summary"
  timeout 240 python3 bench/rope_vs_torch.py --bin gpu-bin/bench_rope_gpu --rows forward --bs 2 \
    --json-out "$out/compare_fwd.json" > "$out/compare_fwd.md" 2> "$logs/compare_fwd.err"
  echo "compare forward bs 2: rc=$? $(tail -n 2 "$logs/compare_fwd.err" | tr '\n' ' ')" >> "$summary"
  timeout 200 python3 bench/rope_vs_torch.py --bin gpu-bin/bench_rope_gpu --rows backward \
    --json-out "$out/compare_bwd.json" > "$out/compare_bwd.md" 2> "$logs/compare_bwd.err"
  echo "compare backward: rc=$? $(tail -n 2 "$logs/compare_bwd.err" | tr '\n' ' ')" >> "$summary"
  cat "$out/compare_fwd.md" "$out/compare_bwd.md" "$out/bench_bwd.md" "$summary"
  exit 0
fi

if [[ "$mode" == "investigate" ]]; then
  # The checks, cold compiles of the GQA backward, the code-generation sweep (launch shapes, groups) and
  # Nsight Compute metrics of seam's and torch.compile's kernels for two rope-only rows.
  summary_mode_checks
  gpu-bin/bench_rope_gpu --direction backward --only W5 > "$out/bwd_cold.md" 2>&1
  echo "backward W5 (cold compiles): rc=$?" >> "$summary"
  gpu-bin/bench_rope_gpu --sweep --iterations 30 > "$out/sweep.md" 2>&1
  echo "sweep: rc=$?" >> "$summary"
  timeout 240 scripts/gpu_profile.sh --vs-torch W2 rope-only 1 W3 rope-only 2 > "$out/vs_torch.txt" 2>&1
  echo "ncu vs torch.compile: rc=$?" >> "$summary"
  cat "$out/bwd_cold.md" "$out/sweep.md" "$out/vs_torch.txt" "$summary"
  exit 0
fi

if [[ "$mode" == "probe" ]]; then
  out="${OUT:-gpu-out}"
  mkdir -p "$out"
  probe="${2:-copy_probe}"
  nvcc -O3 -arch=sm_90 -o "$out/$probe" "bench/experiments/$probe.cu" -lcuda || exit 1
  "$out/$probe" | tee "$out/$probe.md"
  rc=${PIPESTATUS[0]}
  rm -f "$out/$probe"
  exit "$rc"
fi

if [[ "$mode" == "compare" ]]; then
  out="${OUT:-gpu-out}"
  mkdir -p "$out"
  export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
  rc=0
  for rows in "${@:2}"; do
    extra=()
    if [[ "$rows" == "flush" ]]; then rows=forward; extra=(--flush-l2); fi
    echo "== seam vs PyTorch: $rows ${extra[*]} =="
    tag="${rows}${extra:+_flush}"
    python3 bench/rope_vs_torch.py --bin gpu-bin/bench_rope_gpu --rows "$rows" "${extra[@]}" \
      --json-out "$out/compare_$tag.json" 2>"$out/compare_$tag.err" | tee "$out/compare_$tag.md" || rc=$?
    tail -n 20 "$out/compare_$tag.err"
  done
  exit $rc
fi

[[ "$mode" == "run" ]] || { echo "usage: scripts/gpu_check.sh build|verify|run [quick]|report|investigate|probe|compare ROWS..."; exit 2; }
quick="${2:-}"
out="${OUT:-gpu-out}"
# Few files in $out (remote runners often bring back only a handful): every log goes into $logs, which ends
# up as logs.tgz next to the benchmark tables.
logs="$(mktemp -d)"
mkdir -p "$out"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export SEAM_CACHE_DIR="$(mktemp -d)"
export SEAM_FAILURE_DIR="$logs"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv > "$logs/gpu.txt" 2>&1
status=()
step() {  # step NAME COMMAND...: runs, logs to $logs/NAME.log, records pass/fail
  local name="$1"
  shift
  # SEAM_GPU_STEPS="gpu_suite bench ...": only these steps (to fit a time limit per call)
  [[ -z "${SEAM_GPU_STEPS:-}" || " $SEAM_GPU_STEPS " == *" $name "* ]] || return 0
  local start=$SECONDS
  "$@" > "$logs/$name.log" 2>&1
  local rc=$?
  status+=("$name: rc=$rc ($((SECONDS - start)) s)")
  tail -n 5 "$logs/$name.log"
}
step smoke gpu-bin/seam_gpu_smoke
step runtime_tests gpu-bin/seam_runtime_tests
if [[ "$quick" == "quick" ]]; then export SEAM_GPU_QUICK=1; fi
step gpu_suite gpu-bin/seam_gpu_tests
step memcheck memcheck_suite
step bench gpu-bin/bench_rope_gpu $([[ "$quick" == "quick" ]] && echo --quick)
if [[ "$quick" != "quick" ]]; then
  step bench_bwd gpu-bin/bench_rope_gpu --direction backward
  step bench_t gpu-bin/bench_rope_gpu --t-sweep
  step bench_matmul gpu-bin/bench_matmul_gpu
  step bench_reductions bench_reductions
fi
step sweep gpu-bin/bench_rope_gpu --sweep --iterations 30
step python scripts/gpu_python.sh  # builds the Python module here, pytest on CUDA tensors, the RoPE example
printf '%s\n' "${status[@]}" > "$logs/summary.txt"
for name in bench bench_bwd bench_t bench_matmul bench_reductions sweep; do
  [[ -f "$logs/$name.log" ]] && cp "$logs/$name.log" "$out/"
done
cp "$logs/summary.txt" "$out/"
tar czf "$out/logs.tgz" -C "$logs" .
cat "$logs/gpu.txt"
echo "== summary =="
cat "$logs/summary.txt"
