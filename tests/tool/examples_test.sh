#!/usr/bin/env bash
# Every fusion in examples/ through the whole tool: verify, segment, emit (CUDA source), and the host
# backend (generated code compiled for the CPU) against the reference interpreter on seeded inputs.
#
#   tests/tool/examples_test.sh SEAM_BINARY EXAMPLES_DIR
set -uo pipefail
seam=$1
dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
for f in "$dir"/*.seam; do
  name=$(basename "$f" .seam)
  if "$seam" verify "$f" >"$work/log" 2>&1 &&
    "$seam" segment "$f" >>"$work/log" 2>&1 &&
    "$seam" emit "$f" >>"$work/log" 2>&1 &&
    "$seam" run "$f" --seed 3 --out "$work/$name" >>"$work/log" 2>&1 &&
    "$seam" run "$f" --seed 3 --backend host --expect "$work/$name" >>"$work/log" 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAILED: $f"
    sed 's/^/  | /' "$work/log" | tail -20
  fi
done
echo "examples: $passed passed, $failed failed"
((failed == 0 && passed > 0))
