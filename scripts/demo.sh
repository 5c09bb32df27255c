#!/usr/bin/env bash
# The main job on the default example: builds seam, then builds the Llama-2-13b RoPE fusion, prints it,
# verifies it, and runs it on the reference interpreter at a small size.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh build -DSEAM_BUILD_TESTS=OFF
build/tools/seam demo
