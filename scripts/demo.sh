#!/usr/bin/env bash
# Installs what is missing, builds culd, and links the example cubins in
# examples/ (a kernel in main.cubin calling device functions in lib.cubin),
# then compares the result with nvlink's own output shipped beside them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
out="$BUILD_DIR/example-sm_90.cubin"
echo
echo "== culd -v -arch=sm_90 examples/sm_90/lib.cubin examples/sm_90/main.cubin -o $out"
"$BUILD_DIR/tools/culd/culd" -v -arch=sm_90 examples/sm_90/lib.cubin examples/sm_90/main.cubin -o "$out"
echo
echo "== what it linked (culd-dump --summary)"
"$BUILD_DIR/tools/culd-dump/culd-dump" --plugin-dir "$BUILD_DIR/plugins" -h -S "$out"
echo
echo "== culd-diff against nvlink's output for the same inputs"
"$BUILD_DIR/tools/culd-diff/culd-diff" "$out" examples/sm_90/nvlink.cubin
