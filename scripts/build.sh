#!/usr/bin/env bash
# Configures and builds culd into ${BUILD_DIR:-build} (Release, all plugins).
# Extra arguments go to CMake, e.g. -DCULD_PLUGINS="sm90;sm100-mercury".
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo} "$@" >/dev/null
cmake --build "$BUILD_DIR" --parallel "$(nproc)"
