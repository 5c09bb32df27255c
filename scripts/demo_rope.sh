#!/usr/bin/env bash
# The RoPE example with the C++ tool: builds seam, then builds the Llama-2-13b RoPE fusion, prints it,
# verifies it, and runs it on the reference interpreter at a small size (`seam demo`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh build
log="$(mktemp -t seam-demo-build.XXXXXX.log)"
echo "demo_rope: building seam (log: $log)"
if ! scripts/build.sh build -DSEAM_BUILD_TESTS=OFF >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  echo "demo_rope: the build failed (full log: $log)" >&2
  exit 1
fi
build/tools/seam demo
