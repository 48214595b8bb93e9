#!/usr/bin/env bash
# Rebuilds the inputs of tests/cli/cross_target_ptx.cmake with CUDA 13.0
# (nvcc, nvlink on PATH). See README.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
fam='-gencode arch=compute_100f,code=[sm_100f,compute_100f]'
nvcc $fam -rdc=true -c lib.cu -o lib.o
nvcc -gencode arch=compute_100f,code=sm_100f -rdc=true -c lib.cu -o lib-sass.o
nvcc $fam -rdc=true -c lib-unlaunched.cu -o lib-unlaunched.o
nvcc -arch=sm_103 -rdc=true -c main-both.cu -o main-both.o
nvcc -arch=sm_103 -rdc=true -c main-float.cu -o main-float.o
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The reference for culd's PTX fallback: nvlink compiling the same PTX.
nvcc -gencode arch=compute_100f,code=compute_100f -rdc=true -c lib.cu -o "$tmp/lib-ptx.o"
nvlink -arch=sm_103 "$tmp/lib-ptx.o" main-both.o -o nvlink-ptx.cubin
nvlink -arch=sm_103 lib-unlaunched.o main-float.o -o nvlink-unlaunched.cubin
