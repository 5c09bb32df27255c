#!/usr/bin/env bash
# Installs the Debian packages seam needs to build and test, skipping those already present.
# Usage: scripts/install_deps.sh [--fuzz]   (--fuzz adds clang and its fuzzer runtime)
set -euo pipefail
packages=(cmake make g++ libgtest-dev graphviz llvm-15-tools python3)
# The Python frontend: its extension module (pybind11, Python headers) and its tests (pytest, CPU torch).
packages+=(python3-dev pybind11-dev python3-pytest python3-torch python3-numpy)
if [[ "${1:-}" == "--fuzz" ]]; then
  packages+=(clang libclang-rt-14-dev)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install_deps: installing ${missing[*]}"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
