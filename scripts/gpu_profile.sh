#!/usr/bin/env bash
# Nsight Compute profiles of RoPE kernels on the GPU machine (carry gpu-bin/ from gpu_check.sh build).
# Usage: scripts/gpu_profile.sh [WORKLOAD CONTRACT BS]...   e.g. W2 thunder 2 W7 thunder 2
# Writes $OUT/<workload>_<contract>_<bs>.ncu-rep and prints the key sections as text.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-gpu-out}"
mkdir -p "$out"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export SEAM_CACHE_DIR="$(mktemp -d)"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
while (($# >= 3)); do
  name="$1_$2_$3"
  # Skip the 3 warm-up launches of the timer; profile one launch with the full section set.
  "$ncu" --clock-control none --set full --launch-skip 3 --launch-count 1 -f -o "$out/$name" \
    gpu-bin/bench_rope_gpu --only "$1" --contract "$2" --bs "$3" --iterations 1 > "$out/$name.log" 2>&1
  echo "== $name (rc $?)"
  "$ncu" --import "$out/$name.ncu-rep" --page details --print-units base \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
    --section WarpStateStats 2>&1 | grep -vE "^\s*-{5,}|^\s*$" | head -120
  shift 3
done
