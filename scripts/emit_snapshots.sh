#!/usr/bin/env bash
# Prints `seam emit` of every RoPE workload (W1-W9, both contracts, forward and backward, bs 2, plus
# T = 32768 rows) and the transformer stack into DIR, one file each, so that a change meant not to alter
# generated code can be proven not to (diff -r two snapshot folders). With --cubin, every file ends with
# the size and hash of its cubin (NVRTC for sm_90, no GPU needed) and its registers per thread: a change
# of the CUDA source that leaves those lines alone leaves the machine code alone.
#
#   scripts/emit_snapshots.sh SEAM_BINARY DIR [--cubin]
set -euo pipefail
seam="$1"
dir="$2"
compile=()
[[ "${3:-}" == "--cubin" ]] && compile=(--compile sm_90)
mkdir -p "$dir"
emit() { "$seam" emit - "${compile[@]}" | grep -v "^// NVRTC .* compile time"; }
for w in W1 W2 W3 W4 W5 W6 W7 W8 W9; do
  for contract in thunder rope-only; do
    for direction in fwd bwd; do
      flag=()
      [[ "$direction" == "bwd" ]] && flag=(--backward)
      "$seam" workload rope --config "$w" --batch 2 --contract "$contract" "${flag[@]}" |
        emit > "$dir/$w-$contract-$direction.cu"
    done
  done
done
for w in W2 W3; do
  "$seam" workload rope --config "$w" --batch 2 --seq 32768 | emit > "$dir/$w-t32768.cu"
done
"$seam" workload transformer | emit > "$dir/transformer.cu"
