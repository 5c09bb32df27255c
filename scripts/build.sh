#!/usr/bin/env bash
# Configures and builds seam. Usage: scripts/build.sh BUILD_DIR [extra cmake arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$1"
shift
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE="${SEAM_BUILD_TYPE:-Release}" "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)"
