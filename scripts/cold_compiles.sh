#!/usr/bin/env bash
# Compile time of RoPE fusions, repeated: each repeat starts two new processes on an empty disk cache, the
# first compiling cold (fusion text to first result, NVRTC's own cache off), the second finding the
# kernels on disk (warm). Prints every sample and the median per row. One sample per row, as the
# benchmark tables give, varies by up to 1.5x on the GPU machine; the median of several does not.
# Needs the GPU machine and gpu-bin/ (scripts/gpu_check.sh build).
#
#   scripts/cold_compiles.sh [REPEATS] [DIRECTION:WORKLOAD:CONTRACT:BS]...
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
repeats="${1:-5}"
shift || true
rows=("$@")
if ((${#rows[@]} == 0)); then
  rows=(forward:W1:rope-only:1 forward:W5:thunder:1 forward:W6:thunder:1 backward:W2:thunder:2
        backward:W3:thunder:2 backward:W4:thunder:2 backward:W5:thunder:2 backward:W6:thunder:2
        backward:W7:thunder:2)
fi

# The compile time of one bench_rope_gpu row (--compile-only: no timings), from its JSON line.
compile_ms() {
  gpu-bin/bench_rope_gpu --compile-only --json --copy-rate 4.2 --direction "$1" --only "$2" --contract "$3" \
    --bs "$4" | sed -n 's/.*"compile_ms": \([0-9.]*\).*/\1/p'
}

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '| row | cold ms (samples) | cold median | warm ms (samples) | warm median |\n|---|---|---|---|---|\n'
for row in "${rows[@]}"; do
  IFS=: read -r direction workload contract bs <<< "$row"
  cold="" warm=""
  for ((i = 0; i < repeats; ++i)); do
    dir="$(mktemp -d)"
    cold+="$(SEAM_CACHE_DIR="$dir" compile_ms "$direction" "$workload" "$contract" "$bs") "
    warm+="$(SEAM_CACHE_DIR="$dir" compile_ms "$direction" "$workload" "$contract" "$bs") "
    rm -rf "$dir"
  done
  printf '| %s %s %s bs %s | %s| %s | %s| %s |\n' "$workload" "$contract" "$direction" "$bs" "$cold" \
    "$(echo "$cold" | median)" "$warm" "$(echo "$warm" | median)"
done
