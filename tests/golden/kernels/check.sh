#!/usr/bin/env bash
# The generated code of representative kernels, checked in: a change that should not alter kernels is
# proven not to (CI diffs them), and one that should shows its effect in review. After a deliberate change
# of generated code, refresh them with --update and commit the diff with the change.
#
#   tests/golden/kernels/check.sh SEAM_BINARY [--update]
set -uo pipefail
seam=$1
update=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
examples="$here/../../../examples"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

rope() {  # NAME CONFIG CONTRACT DIRECTION [SEQ]
  local flags=(--config "$2" --batch 2 --contract "$3")
  [[ "$4" == bwd ]] && flags+=(--backward)
  [[ -n "${5:-}" ]] && flags+=(--seq "$5")
  "$seam" workload rope "${flags[@]}" -o "$work/$1.seam"
}
rope W1-thunder-fwd W1 thunder fwd          # MHA forward: 16-byte vectors, branch-free cat
rope W4-thunder-fwd W4 thunder fwd          # GQA forward: expanded k/v stored as copies
rope W8-rope-only-fwd W8 rope-only fwd      # head size 96: rows ending inside a 128-byte line, in pairs
rope W3-thunder-fwd-t32768 W3 thunder fwd 32768  # a large slab: row tiles
rope W5-thunder-bwd W5 thunder bwd          # GQA backward: sums per chunk, register cap
rope W7-rope-only-bwd W7 rope-only bwd      # backward with runs over outer-axis branches
"$seam" workload transformer --layers 1 -o "$work/transformer.seam"  # row kernels next to library products
for example in rmsnorm softmax rotate_half; do cp "$examples/$example.seam" "$work/$example.seam"; done
cp "$here"/fusions/*.seam "$work/"  # row-kernel variants: a peeled row, a row over a cluster
# Normalization backward: dx and the weight gradient (an outer reduction) in one row kernel
cp "$here/../../../bench/reductions/rmsnorm_bwd_16384x4096.seam" "$work/rmsnorm_bwd.seam"

failed=0
for fusion in "$work"/*.seam; do
  name=$(basename "$fusion" .seam)
  if ! "$seam" emit "$fusion" >"$work/$name.cu" 2>&1; then
    echo "FAILED: seam emit $name"; cat "$work/$name.cu"; failed=1; continue
  fi
  if [[ "$update" == "--update" ]]; then
    cp "$work/$name.cu" "$here/$name.cu"
  elif ! diff -u "$here/$name.cu" "$work/$name.cu" >"$work/$name.diff"; then
    echo "CHANGED: generated code of $name (tests/golden/kernels/$name.cu):"
    head -80 "$work/$name.diff"
    failed=1
  fi
done
[[ "$update" == "--update" ]] && { echo "updated $(ls "$work"/*.cu | wc -l) kernel snapshots"; exit 0; }
((failed)) && { echo "kernel snapshots: differ (refresh with --update if the change is meant)"; exit 1; }
echo "kernel snapshots: $(ls "$work"/*.cu | wc -l) passed, 0 failed"
