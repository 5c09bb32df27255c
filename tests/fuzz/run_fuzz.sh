#!/usr/bin/env bash
# Builds a fuzzer with clang (libFuzzer + ASan + UBSan) and runs it for SECONDS (default 60).
# Usage: tests/fuzz/run_fuzz.sh [SECONDS] [BUILD_DIR] [TARGET]
# TARGET is parser (default: the text format, tests/fuzz/fuzz_parser.cpp) or whole_tool (random valid
# fusions through every stage, tests/fuzz/fuzz_whole_tool.cpp). The seed corpora (tests/fuzz/corpus,
# tests/fuzz/corpus_whole_tool) are only read; new inputs go to BUILD_DIR/fuzz-corpus[-whole_tool] and
# crashes to BUILD_DIR/fuzz-artifacts. Exits non-zero when the fuzzer finds a failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-60}"
build="${2:-build-fuzz}"
target="${3:-parser}"
scripts/install_deps.sh --fuzz
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSEAM_FUZZ=ON \
  -DSEAM_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target "fuzz_$target"
mkdir -p "$build/fuzz-artifacts"
# As scripts/test.sh --sanitize: no thread storage in LeakSanitizer's roots (tests/sanitizers/lsan.supp).
export LSAN_OPTIONS="use_tls=0:print_suppressions=0:suppressions=$PWD/tests/sanitizers/lsan.supp"
case "$target" in
  parser)
    mkdir -p "$build/fuzz-corpus"
    "$build/tests/fuzz/fuzz_parser" "$build/fuzz-corpus" tests/fuzz/corpus \
      -dict=tests/fuzz/seam.dict -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$build/fuzz-artifacts/" -print_final_stats=1
    ;;
  whole_tool)
    # 16 bytes choose a case (testing/whole_tool_check.h); longer inputs only repeat them.
    mkdir -p "$build/fuzz-corpus-whole_tool"
    "$build/tests/fuzz/fuzz_whole_tool" "$build/fuzz-corpus-whole_tool" tests/fuzz/corpus_whole_tool \
      -max_total_time="$seconds" -max_len=16 -timeout=60 -rss_limit_mb=2048 \
      -artifact_prefix="$build/fuzz-artifacts/" -print_final_stats=1
    ;;
  *)
    echo "run_fuzz.sh: unknown target '$target' (parser or whole_tool)" >&2
    exit 2
    ;;
esac
