#!/usr/bin/env bash
# nvcc-with-culd.sh - build a CUDA program with nvcc, with the culd of this
# source tree's build doing the device link instead of NVIDIA's nvlink.  Every
# argument is passed to nvcc unchanged:
#
#   scripts/nvcc-with-culd.sh -arch=sm_90 -rdc=true a.cu b.cu -o app
#   scripts/nvcc-with-culd.sh -arch=sm_90 -rdc=true main.o -L. -lmylib -o app
#   scripts/nvcc-with-culd.sh -arch=sm_90 -dlink a.o b.o -o dlink.o
#   scripts/nvcc-with-culd.sh -arch=sm_90 -rdc=true a.cu b.cu -o app -dryrun
#
# Environment:
#   CULD      the culd binary                  (default build/tools/culd/culd)
#   NVCC      the real nvcc                    (default $CUDA13/bin/nvcc)
#   CUDA13    CUDA toolkit root, used for NVCC (default /usr/local/cuda)
#   CULD_LOG  if set, every device-link command line is appended to this
#             file (shell-quoted, argv0 `nvlink`, one line per call)
#   CULD_NVCC_CACHE  see culd-nvcc (default here: none, a view per call)
#
# This is a thin wrapper around tools/culd-nvcc/culd-nvcc, the installed
# `culd-nvcc` (its comments explain how nvcc is made to run culd); an
# installed prefix needs only <prefix>/bin/culd-nvcc.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CUDA13=${CUDA13:-/usr/local/cuda}
CULD=${CULD:-$ROOT/build/tools/culd/culd}
case $CULD in /*) ;; *) CULD=$(cd "$(dirname "$CULD")" && pwd)/$(basename "$CULD") ;; esac
export CULD
export CULD_NVCC_REAL=${NVCC:-$CUDA13/bin/nvcc}
# A fresh toolkit view per call, removed afterwards (no cache in $HOME).
export CULD_NVCC_CACHE=${CULD_NVCC_CACHE:-none}
exec "$ROOT/tools/culd-nvcc/culd-nvcc" "$@"
