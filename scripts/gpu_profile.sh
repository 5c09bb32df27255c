#!/usr/bin/env bash
# Nsight Compute profiles of RoPE kernels on the GPU machine (carry gpu-bin/ from gpu_check.sh build).
# Usage: scripts/gpu_profile.sh [WORKLOAD CONTRACT BS]...   e.g. W2 thunder 2 W7 thunder 2
#   Writes $OUT/<workload>_<contract>_<bs>.ncu-rep and prints the key sections as text.
# Usage: scripts/gpu_profile.sh --compact [WORKLOAD CONTRACT BS]...   one line of key metrics per launch
#   PROFILE_DIRECTION=backward: backward rows (all modes but --vs-torch)
# Usage: scripts/gpu_profile.sh --vs-torch [WORKLOAD CONTRACT BS]...   e.g. W2 rope-only 1
#   Forward rows only: the same metrics for seam's kernel and torch.compile's kernels, one compact line per
#   kernel (what differs where torch.compile is faster). NCU_CACHE_CONTROL=none keeps the caches between
#   kernels (steady state) instead of flushing them before each profiled kernel.
# Usage: scripts/gpu_profile.sh --probe   the compact metrics of bench/experiments/gather_probe.cu's kernels
#   (RoPE's memory pattern by hand, bs 2 of W8 and W1, each kernel once)
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-gpu-out}"
mkdir -p "$out"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export SEAM_CACHE_DIR="$(mktemp -d)"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
cache_control="${NCU_CACHE_CONTROL:-all}"
direction="${PROFILE_DIRECTION:-forward}"  # or backward (bench_rope_gpu --direction)
metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,\
lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,\
dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,\
sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct,\
launch__registers_per_thread,launch__block_size,launch__grid_size,smsp__inst_executed.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,\
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,l1tex__t_sector_hit_rate.pct,\
lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,smsp__cycles_active.avg,\
smsp__average_warps_issue_stalled_drain_per_issue_active.ratio
summarize() {  # CSV from ncu --page raw on stdin -> one line per kernel
  python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
start = next((i for i, r in enumerate(rows) if "Kernel Name" in r), None)
if start is None:
    sys.exit("no Nsight Compute data (see the .err files in the output folder)")
head, data = rows[start], rows[start + 2:]
short = {"gpu__time_duration.sum": "ns", "dram__throughput.avg.pct_of_peak_sustained_elapsed": "dram%",
         "lts__throughput.avg.pct_of_peak_sustained_elapsed": "l2%", "l1tex__throughput.avg.pct_of_peak_sustained_elapsed": "l1%",
         "dram__bytes_read.sum": "rd", "dram__bytes_write.sum": "wr", "lts__t_sector_hit_rate.pct": "l2hit%",
         "sm__warps_active.avg.pct_of_peak_sustained_active": "occ%", "sm__maximum_warps_per_active_cycle_pct": "occmax%",
         "launch__registers_per_thread": "regs", "launch__block_size": "block", "launch__grid_size": "grid",
         "smsp__inst_executed.sum": "inst", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": "ld_req",
         "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": "st_req",
         "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio": "stall_lsb",
         "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio": "stall_lgq",
         "smsp__average_warps_issue_stalled_drain_per_issue_active.ratio": "stall_drain",
         "l1tex__t_sector_hit_rate.pct": "l1hit%", "lts__t_sectors_op_read.sum": "l2rd_sec",
         "lts__t_sectors_op_write.sum": "l2wr_sec", "smsp__cycles_active.avg": "cyc_active"}
for r in data:
    if len(r) != len(head): continue
    name = r[head.index("Kernel Name")][:40]
    print(name, " ".join(f"{short[m]}={r[head.index(m)]}" for m in short if m in head))
'
}
vs_torch() {
  while (($# >= 3)); do
    echo "== $1 $2 bs $3: seam"
    "$ncu" --clock-control none --cache-control "$cache_control" --metrics "$metrics" --launch-skip 3 --launch-count 5 --csv --page raw \
      gpu-bin/bench_rope_gpu --no-cupti --only "$1" --contract "$2" --bs "$3" --iterations 3 2> "$out/ncu_seam.err" | summarize
    echo "== $1 $2 bs $3: torch.compile"
    "$ncu" --clock-control none --cache-control "$cache_control" --metrics "$metrics" --nvtx --nvtx-include "ncu_target/" --launch-count 6 \
      --csv --page raw python3 bench/rope_vs_torch.py --ncu-target --rows forward --only "$1" --contract "$2" \
      --bs "$3" 2> "$out/ncu_torch.err" | summarize
    shift 3
  done
}

# seam's kernel alone, the compact metrics (one line per profiled launch) of each row.
compact() {
  while (($# >= 3)); do
    echo "== $1 $2 bs $3 ($direction)"
    "$ncu" --clock-control none --cache-control "$cache_control" --metrics "$metrics" --launch-skip 3 --launch-count 3 --csv --page raw \
      gpu-bin/bench_rope_gpu --no-cupti --direction "$direction" --only "$1" --contract "$2" --bs "$3" --iterations 3 \
      2> "$out/ncu_compact.err" | summarize
    shift 3
  done
}

if [[ "${1:-}" == "--compact" ]]; then
  shift
  compact "$@"
  exit 0
fi

if [[ "${1:-}" == "--probe" ]]; then
  nvcc -O3 -arch=sm_90 -o "$out/gather_probe" bench/experiments/gather_probe.cu || exit 1
  "$ncu" --clock-control none --cache-control "$cache_control" --metrics "$metrics" -k regex:"rope_probe|rope_halves|move_|copy_one" \
    --csv --page raw "$out/gather_probe" --once 2> "$out/ncu_probe.err" | summarize
  rc=${PIPESTATUS[0]}
  rm -f "$out/gather_probe"
  exit "$rc"
fi

if [[ "${1:-}" == "--vs-torch" ]]; then
  shift
  vs_torch "$@"
  exit 0
fi

while (($# >= 3)); do
  name="$1_$2_$3"
  # Skip the 3 warm-up launches of the timer; profile one launch with the full section set.
  "$ncu" --clock-control none --set full --launch-skip 3 --launch-count 1 -f -o "$out/$name" \
    gpu-bin/bench_rope_gpu --no-cupti --direction "$direction" --only "$1" --contract "$2" --bs "$3" --iterations 1 > "$out/$name.log" 2>&1
  echo "== $name (rc $?)"
  "$ncu" --import "$out/$name.ncu-rep" --page details --print-units base \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
    --section WarpStateStats 2>&1 | grep -vE "^\s*-{5,}|^\s*$" | head -120
  shift 3
done
