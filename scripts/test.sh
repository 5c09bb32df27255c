#!/usr/bin/env bash
# Builds seam and runs the whole test suite.
# Usage: scripts/test.sh [--sanitize]   (--sanitize: AddressSanitizer + UndefinedBehaviorSanitizer build)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
if [[ "${1:-}" == "--sanitize" ]]; then
  dir=build-asan
  SEAM_BUILD_TYPE=Debug scripts/build.sh "$dir" -DSEAM_SANITIZE=ON -DSEAM_BUILD_TESTS=ON
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  # Thread storage out of LeakSanitizer's roots: its scan of dlopened libraries' dynamic TLS crashes at
  # exit (tests/sanitizers/lsan.supp says what that leaves to suppress).
  export LSAN_OPTIONS="use_tls=0:print_suppressions=0:suppressions=$PWD/tests/sanitizers/lsan.supp"
else
  dir=build
  scripts/build.sh "$dir" -DSEAM_BUILD_TESTS=ON  # explicit: scripts/demo.sh configures this folder without tests
fi
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)"
