#!/usr/bin/env bash
# Builds culd with its tests and runs the whole suite through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --fuzz
BUILD_DIR=${BUILD_DIR:-build} scripts/build.sh "$@"
# Fuzz smoke: every libFuzzer harness builds (clang, ASan + UBSan) and runs
# briefly on the seed corpora; long runs are scripts/fuzz.sh SECONDS.
scripts/fuzz.sh "${FUZZ_SMOKE_SECONDS:-10}"
# One Definition Rule: an LTO build with -Werror=odr (scripts/odr-check.sh).
[ "${SKIP_ODR_CHECK:-0}" = 1 ] || scripts/odr-check.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure --parallel "$(nproc)" --timeout 300
