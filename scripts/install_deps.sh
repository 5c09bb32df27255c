#!/usr/bin/env bash
# Installs the Debian packages seam needs, skipping those already present, without recommended packages
# and quietly (apt's and dpkg's progress go to a log, printed only when the install fails).
# Usage: scripts/install_deps.sh [GROUP...]   (no group: all but fuzz; --fuzz: all and fuzz)
#   build   cmake, make, g++: the libraries, the tool, the C++ demo
#   python  the extension module (Python headers, pybind11) and PyTorch (CPU) for the Python frontend,
#           the torch.compile backend and the demo
#   test    GoogleTest, lit/FileCheck (llvm-15-tools) and pytest
#   draw    graphviz, for `seam segment --draw`
#   fuzz    clang and its fuzzer runtime
# Debian's python3-torch depends on libtorch1.13, which itself depends on OpenCV and FFmpeg (and through
# OpenCV's image codecs on GDAL): well over a hundred packages that no `--no-install-recommends` avoids
# (hard dependencies, not recommendations). Only the python group brings them.
set -euo pipefail
groups=("$@")
if ((${#groups[@]} == 0)); then
  groups=(build python test draw)
elif [[ "${groups[*]}" == "--fuzz" ]]; then
  groups=(build python test draw fuzz)
fi
packages=()
for group in "${groups[@]}"; do
  case "$group" in
    build) packages+=(cmake make g++) ;;
    python) packages+=(python3 python3-dev pybind11-dev python3-numpy python3-torch) ;;
    test) packages+=(libgtest-dev llvm-15-tools python3-pytest) ;;
    draw) packages+=(graphviz) ;;
    fuzz) packages+=(clang libclang-rt-14-dev) ;;
    *) echo "install_deps: unknown group '$group' (build, python, test, draw, fuzz)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
((${#missing[@]})) || exit 0
SUDO=""
[[ $(id -u) -ne 0 ]] && SUDO="sudo"
log="$(mktemp -t seam-install-deps.XXXXXX.log)"
echo "install_deps: installing ${missing[*]} and their dependencies (log: $log)"
start=$SECONDS
if ! { $SUDO apt-get update -qq &&
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    -o Dpkg::Use-Pty=0 "${missing[@]}"; } >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  echo "install_deps: apt-get failed (full log: $log)" >&2
  exit 1
fi
echo "install_deps: $(grep -c '^Setting up ' "$log" || true) packages set up in $((SECONDS - start)) s"
