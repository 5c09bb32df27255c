#!/usr/bin/env bash
# The normalization backwards' register layouts side by side in one GPU run (seam bench, 30 calls each):
# the plan's default; the share per thread (--row-outer-share) and blocks per multiprocessor
# (--row-outer-threads-per-sm) that hold more warps without spilling (registers checked with
# `seam emit --compile sm_90`); each with and without the next row group loaded ahead into registers
# (--row-load-ahead). What decides the
# defaults of those knobs (docs/CODEGEN.md, "Outer reductions").
#
#   bench/reductions/norm_backward_variants.sh SEAM_BINARY [FUSION_FILE...]
# Default files: RMSNorm and LayerNorm backward of the set (16384 x 4096); name others (make_sweep.py DIR
# writes the sweep's). Logs to $OUT/norm_backward_variants.log (else ./) as it goes.
set -uo pipefail
seam=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
log="${OUT:-.}/norm_backward_variants.log"
files=("$@")
if ((${#files[@]} == 0)); then
  files=("$here/rmsnorm_bwd_16384x4096.seam" "$here/layernorm_bwd_16384x4096.seam")
fi
variants=(""
          "--row-outer-share 16 --row-outer-threads-per-sm 768" "--row-outer-share 16 --row-outer-threads-per-sm 1024"
          "--row-outer-share 8 --row-outer-threads-per-sm 1024"
          "--row-load-ahead" "--row-load-ahead --row-outer-share 16 --row-outer-threads-per-sm 768"
          "--row-load-ahead --row-outer-share 16 --row-outer-threads-per-sm 1024"
          "--row-load-ahead --row-outer-share 8 --row-outer-threads-per-sm 1024")
for f in "${files[@]}"; do
  for v in "${variants[@]}"; do
    # shellcheck disable=SC2086  # the variant is several flags
    result=$("$seam" bench "$f" --iterations 30 $v 2>&1)
    row=$(grep '^| ' <<< "$result" | tail -1)
    echo "variant [${v:-default}] ${row:-FAILED: $(tail -1 <<< "$result")}" | tee -a "$log"
  done
done
