#!/usr/bin/env bash
# Checks that every C++ source is formatted with the repository's .clang-format (clang-format 14).
# Usage: scripts/lint.sh [--fix]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || {
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang-format
}
bad=()
for f in $(git ls-files '*.cpp' '*.h' '*.cuh'); do
  if [[ "${1:-}" == "--fix" ]]; then
    clang-format --style=file -i "$f"
  elif ! clang-format --style=file "$f" | cmp -s - "$f"; then
    bad+=("$f")
  fi
done
if ((${#bad[@]})); then
  echo "lint: not formatted (run scripts/lint.sh --fix):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "lint: all sources formatted"
