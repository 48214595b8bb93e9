#!/usr/bin/env bash
# Rebuilds the inputs of tests/cli/weak_strong_kernel.cmake with CUDA 13.0
# (nvcc on PATH). See README.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
for sm in 89 100; do
    for unit in implicit special; do
        nvcc -arch=sm_$sm -rdc=true -cubin "$unit.cu" -o "$unit.sm_$sm.cubin"
    done
done
