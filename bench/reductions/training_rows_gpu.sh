#!/usr/bin/env bash
# One GPU batch for the training rows (normalization backwards, cross-entropy gradients), after
# `scripts/gpu_check.sh build` put the binaries in gpu-bin/. Logs under $OUT (else ./gpu-out) as it goes:
#   gpu_tests.log          GPU suite cases of these kernels (poisoned outputs against the interpreter)
#   norm_backward_variants.log  share / blocks per multiprocessor / loaded ahead, side by side (seam bench)
#   peel_ab.log            rows no vector divides: peeled (by columns next to outer reductions) against not
#   reductions.log/.json   seam next to eager and torch.compile: the changed rows of the set (defaults)
#   reductions_variant.log/.json  the normalization backwards again with SEAM_VARIANT's flags (default:
#                          share 16, 1024 threads per multiprocessor), next to torch.compile in the same way
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
out="${OUT:-gpu-out}"
mkdir -p "$out"
seam=gpu-bin/seam

timeout 120 gpu-bin/seam_gpu_tests --gtest_filter='GpuTrainingRows.*:GpuOuterReduction.NormalizationBackward' \
  > "$out/gpu_tests.log" 2>&1
echo "gpu tests: exit $? ($(grep -c '^\[       OK' "$out/gpu_tests.log") ok, $(grep -c '^\[  FAILED' "$out/gpu_tests.log") failed lines)"

OUT="$out" timeout 100 bench/reductions/norm_backward_variants.sh "$seam" > /dev/null 2>&1
echo "variants: $(wc -l < "$out/norm_backward_variants.log") rows"

sweep=$(mktemp -d)
python3 bench/reductions/make_sweep.py "$sweep" > /dev/null
for f in rmsnorm_bwd_16380x4097 layernorm_bwd_16380x4097 rmsnorm_bwd_65472x1025 layernorm_bwd_65472x1025 \
         cross_entropy_fwd_bwd_5341x50257 cross_entropy_bwd_5341x50257; do
  for flag in "" --row-unpeeled; do
    # shellcheck disable=SC2086
    result=$(timeout 60 "$seam" bench "$sweep/$f.seam" --iterations 30 $flag 2>&1)
    row=$(grep '^| ' <<< "$result" | tail -1)
    echo "[${flag:-peeled}] ${row:-FAILED: $(tail -1 <<< "$result")}" >> "$out/peel_ab.log"
  done
done
echo "peel A/B: $(wc -l < "$out/peel_ab.log") rows"

timeout 180 python3 bench/reductions_vs_torch.py --seam "$seam" \
  --only rmsnorm_bwd,layernorm_bwd,cross_entropy_fwd,cross_entropy_bwd,cross_entropy_fwd_bwd \
  --json-out "$out/reductions.json" > "$out/reductions.log" 2>&1
echo "reductions vs torch: exit $?"

read -r -a variant <<< "${SEAM_VARIANT:---row-outer-share 16 --row-outer-threads-per-sm 1024}"
knobs=()
for flag in "${variant[@]}"; do knobs+=("--knob=$flag"); done
timeout 90 python3 bench/reductions_vs_torch.py --seam "$seam" --only rmsnorm_bwd,layernorm_bwd "${knobs[@]}" \
  --json-out "$out/reductions_variant.json" > "$out/reductions_variant.log" 2>&1
echo "variant [${variant[*]}] vs torch: exit $?"
