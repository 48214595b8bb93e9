#!/usr/bin/env bash
# One Definition Rule check: builds culd, its plugins, tools and tests with
# gcc's link-time optimiser (-DCULD_LTO_ODR=ON), which fails the link when two
# translation units define one type or inline function differently (-Wodr).
# A whole optimised build (about four minutes on 2 cores); scripts/test.sh
# runs it (SKIP_ODR_CHECK=1 skips it there); see docs/architecture.md
# ("Checks").
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build-odr}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCULD_LTO_ODR=ON \
  -DCMAKE_CXX_COMPILER=g++ "$@" >/dev/null
cmake --build "$BUILD_DIR" --parallel "$(nproc)"
echo "odr-check: no One Definition Rule violations"
