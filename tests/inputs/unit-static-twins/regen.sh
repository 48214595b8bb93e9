#!/usr/bin/env bash
# Rebuilds twins.cubin, the input of tests/cli/unit_static_twins.cmake, with
# CUDA 13.0 (ptxas, nvlink on PATH): nvlink -r of two units that each define
# a local function `helper`, with different code and relocations.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ptxas -arch=sm_100 -c first.ptx -o "$tmp/first.cubin"
ptxas -arch=sm_100 -c second.ptx -o "$tmp/second.cubin"
nvlink -arch=sm_100 -r "$tmp/first.cubin" "$tmp/second.cubin" -o twins.cubin
# attrs.cubin, the second input: two `helper`s whose .nv.info.helper differ
# (the first calls an external function, the second nothing).
ptxas -arch=sm_100 -c attr-a.ptx -o "$tmp/attr-a.cubin"
ptxas -arch=sm_100 -c attr-b.ptx -o "$tmp/attr-b.cubin"
nvlink -arch=sm_100 -r "$tmp/attr-a.cubin" "$tmp/attr-b.cubin" -o attrs.cubin
