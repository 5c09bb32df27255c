#!/usr/bin/env bash
# Checks that every stage includes only the stages docs/ARCHITECTURE.md allows it ("Layering" table: one
# row per stage, the stages it may include), and that src/CMakeLists.txt links each stage to exactly the
# stages it includes directly, so that the build and the documented graph cannot drift apart.
# Run by .ci/run. Usage: scripts/check_layering.sh
set -euo pipefail
cd "$(dirname "$0")/.."
table=$(awk '/^## Layering/ { on = 1; next } on && /^## / { on = 0 } on && /^\| `/' docs/ARCHITECTURE.md)
[[ -n "$table" ]] || { echo "layering: no 'Layering' table in docs/ARCHITECTURE.md"; exit 1; }
declare -A allowed
while IFS='|' read -r _ stage deps _; do
  stage=$(echo "$stage" | tr -d '` ')
  allowed[$stage]=$(echo "$deps" | tr -d '`' | tr ',' ' ' | xargs)
done <<<"$table"

errors=0
for dir in src/*/; do
  stage=$(basename "$dir")
  if [[ -z "${allowed[$stage]+set}" ]]; then
    echo "layering: src/$stage is not in docs/ARCHITECTURE.md's Layering table"
    errors=$((errors + 1))
    continue
  fi
  # Stages this one includes directly (quoted includes of the form "stage/file.h").
  used=$(grep -rhoE '^#include "[a-z_]+/' "$dir" | sed 's/#include "//; s#/##' | sort -u | grep -vx "$stage" || true)
  for dep in $used; do
    [[ -d "src/$dep" ]] || continue
    if [[ " ${allowed[$stage]} " != *" $dep "* ]]; then
      where=$(grep -rlE "^#include \"$dep/" "$dir" | head -3 | tr '\n' ' ')
      echo "layering: $stage includes $dep, which docs/ARCHITECTURE.md does not allow ($where)"
      errors=$((errors + 1))
    fi
  done
  # The library's declared dependencies are the stages it includes.
  declared=$(grep -E "^seam_stage\($stage( |\))" src/CMakeLists.txt | grep -oE 'seam_[a-z_]+' | sed 's/seam_//' |
    grep -vx "stage" | grep -vx "$stage" | sort -u | xargs || true)
  expected=$(echo "$used" | while read -r d; do [[ -n "$d" && -d "src/$d" ]] && echo "$d"; done | sort -u | xargs || true)
  if [[ "$declared" != "$expected" ]]; then
    echo "layering: src/CMakeLists.txt links seam_$stage to [$declared] but it includes [$expected]"
    errors=$((errors + 1))
  fi
done
((errors == 0)) && echo "layering: every stage includes only what docs/ARCHITECTURE.md allows"
((errors == 0))
