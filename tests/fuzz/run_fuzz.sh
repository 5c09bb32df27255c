#!/usr/bin/env bash
# Builds the parser fuzzer with clang (libFuzzer + ASan + UBSan) and runs it for SECONDS (default 60).
# Usage: tests/fuzz/run_fuzz.sh [SECONDS] [BUILD_DIR]
# The seed corpus (tests/fuzz/corpus) is only read; new inputs go to BUILD_DIR/fuzz-corpus and crashes
# to BUILD_DIR/fuzz-artifacts. Exits non-zero when the fuzzer finds a failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-60}"
build="${2:-build-fuzz}"
scripts/install_deps.sh --fuzz
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSEAM_FUZZ=ON \
  -DSEAM_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target fuzz_parser
mkdir -p "$build/fuzz-corpus" "$build/fuzz-artifacts"
"$build/tests/fuzz/fuzz_parser" "$build/fuzz-corpus" tests/fuzz/corpus \
  -dict=tests/fuzz/seam.dict -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$build/fuzz-artifacts/" -print_final_stats=1
