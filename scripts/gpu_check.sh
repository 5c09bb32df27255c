#!/usr/bin/env bash
# Everything that needs the GPU, in one go.
#
#   scripts/gpu_check.sh build        # here (no GPU needed): Release build, binaries copied to gpu-bin/
#   scripts/gpu_check.sh run [quick]  # on the GPU machine, over a copy of the tree carrying gpu-bin/
#                                     # (SEAM_GPU_STEPS="smoke gpu_suite ..." runs only the steps named):
#                                     # smoke test, runtime tests, the GPU suite, the suite under
#                                     # compute-sanitizer memcheck, the RoPE benchmark (forward,
#                                     # backward, T sweep, code-generation variants) and the matrix
#                                     # products' benchmark, the reduction benchmark next to PyTorch
#                                     # (bench_reductions: bench/reductions_vs_torch.py over gpu-bin/seam;
#                                     # SEAM_REDUCTIONS_SWEEP=rmsnorm_fwd[,...] runs the sweep of those
#                                     # kinds instead of the set), prefetched rows against the default
#                                     # (bench_prefetch), the Python frontend's suite on CUDA
#                                     # tensors (scripts/gpu_python.sh builds the module there)
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
  set -e
  scripts/install_deps.sh
  scripts/build.sh build-gpu
  rm -rf gpu-bin && mkdir -p gpu-bin
  cp build-gpu/tests/gpu/seam_gpu_smoke build-gpu/tests/gpu/seam_gpu_tests build-gpu/tests/seam_runtime_tests \
     build-gpu/bench/bench_rope_gpu build-gpu/bench/bench_matmul_gpu build-gpu/tools/seam gpu-bin/
  strip gpu-bin/* 2>/dev/null || true
  du -sh gpu-bin
  exit 0
fi

# The GPU suite under compute-sanitizer memcheck: the whole suite but its largest cases.
memcheck_suite() {
  SEAM_GPU_QUICK=1 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 gpu-bin/seam_gpu_tests \
    --gtest_filter='GpuSuite.*:GpuDeviceApi.*:GpuOuterReduction.*:GpuRowEdges.*:-GpuSuite.RopeFullSizeSampledRows:GpuDeviceApi.BadInputsAreRejectedBeforeAnyLaunch'
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

# Prefetched rows (the row_prefetch knob) next to the default on the normalization backwards, alternating
# in one run: what decides the knob's default.
bench_prefetch() {
  local round f
  for round in 1 2; do
    for f in bench/reductions/rmsnorm_bwd_16384x4096.seam bench/reductions/layernorm_bwd_16384x4096.seam; do
      echo "round $round: $f"
      gpu-bin/seam bench "$f" --iterations 30 || return 1
      gpu-bin/seam bench "$f" --iterations 30 --row-prefetch || return 1
    done
  done
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

[[ "$mode" == "run" ]] || { echo "usage: scripts/gpu_check.sh build|run [quick]|report|investigate|probe|compare ROWS..."; exit 2; }
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
  step bench_prefetch bench_prefetch
fi
step sweep gpu-bin/bench_rope_gpu --sweep --iterations 30
step python scripts/gpu_python.sh  # builds the Python module here, pytest on CUDA tensors, the RoPE example
printf '%s\n' "${status[@]}" > "$logs/summary.txt"
for name in bench bench_bwd bench_t bench_matmul bench_reductions bench_prefetch sweep; do
  [[ -f "$logs/$name.log" ]] && cp "$logs/$name.log" "$out/"
done
cp "$logs/summary.txt" "$out/"
tar czf "$out/logs.tgz" -C "$logs" .
cat "$logs/gpu.txt"
echo "== summary =="
cat "$logs/summary.txt"
