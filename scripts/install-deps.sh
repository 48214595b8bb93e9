#!/usr/bin/env bash
# Installs culd's build and test dependencies on Debian 12 (bookworm) with
# apt-get, only those that are missing. Uses sudo when not run as root.
#   scripts/install-deps.sh [--fuzz]
set -euo pipefail

packages=(cmake ninja-build g++ pkg-config
          libboost-dev libboost-program-options-dev
          libspdlog-dev catch2 libzstd-dev liblz4-dev)
# --fuzz: clang and its sanitizer/libFuzzer runtimes (scripts/fuzz.sh).
if [ "${1:-}" = "--fuzz" ]; then
    packages+=(clang-14 libclang-rt-14-dev)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all dependencies present"
    exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
