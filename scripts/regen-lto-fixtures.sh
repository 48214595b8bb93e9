#!/usr/bin/env bash
# regen-lto-fixtures.sh - rebuild tests/lto/fixtures from tests/lto/src with
# the real NVIDIA toolchain: `nvcc -dlto -rdc=true -c` host objects (LTO IR
# only, compressed as nvcc compresses by default), the .ltoir files nvcc
# -keep leaves, the nvlink command that `nvcc -dlto -dlink -dryrun` prints,
# and what nvlink makes of it (cubin, registration file, -emit-ptx PTX).
# tests/lto/run_lto.cmake replays them with culd.  See docs/fixtures.md
# ("LTO fixtures").
#
# Usage:
#   scripts/regen-lto-fixtures.sh              # sm_80 and sm_90
#   ARCHS="sm_86" scripts/regen-lto-fixtures.sh
#
# Environment (optional; the defaults are only this machine's layout):
#   CUDA13    root of the CUDA 13.0 toolkit (default /usr/local/cuda)
#   ARCHS     the targets (default "sm_80 sm_90")
#
# NOT reproducible byte for byte: nvcc puts a random module id into every
# host object (and so into nvlink.reg.c).  Commit one generation;
# SHA256SUMS only guards it.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SRC=$ROOT/tests/lto/src
FIX=$ROOT/tests/lto/fixtures
CUDA13=${CUDA13:-/usr/local/cuda}
ARCHS=${ARCHS:-"sm_80 sm_90"}
NVCC=$CUDA13/bin/nvcc
NVLINK=$CUDA13/bin/nvlink
export LC_ALL=C
umask 022

"$NVCC" --version | grep -q "V13.0.88" || { echo "need CUDA 13.0.88 at $CUDA13" >&2; exit 1; }
CUDA_LIB=
for d in "$CUDA13"/targets/*/lib "$CUDA13"/lib64; do
    if [ -f "$d/libcudadevrt.a" ]; then CUDA_LIB=$d; break; fi
done
[ -n "$CUDA_LIB" ] || { echo "no libcudadevrt.a under $CUDA13" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# nvlink -dlto loads <nvvmpath>/lib64/libnvvm.so; CUDA 13 keeps libnvvm in
# <cuda>/lib64, where the -nvvmpath nvcc passes (<cuda>/nvvm) does not lead
# ("elfLink linker library load error"). A scratch nvvm folder fixes that.
mkdir -p "$work/nvvm/lib64"
for d in "$CUDA13/lib64" "$CUDA13/nvvm/lib64"; do
    if [ -e "$d/libnvvm.so" ]; then ln -s "$d/libnvvm.so" "$work/nvvm/lib64/libnvvm.so"; break; fi
done

# The nvlink line of a dry run, with nvcc's temporary names replaced:
# registration file -> nvlink.reg.c, output -> nvlink.cubin, toolkit
# library folder -> @CUDA_LIB@, -nvvmpath -> @NVVM@ (the test gives culd the
# toolkit's own nvvm folder).
nvlink_command() {
    grep '^#\$ nvlink ' "$1" | sed -e 's/^#\$ //' -e 's/"//g' \
        -e 's#--register-link-binaries=[^ ]*#--register-link-binaries=nvlink.reg.c#' \
        -e 's# -o [^ ]*# -o nvlink.cubin#' \
        -e "s#-nvvmpath=[^ ]*#-nvvmpath=@NVVM@#" \
        -e "s#-L[^ ]*/lib/stubs#-L@CUDA_LIB@/stubs#" \
        -e "s#-L[^ ]*targets/[^ ]*/lib #-L@CUDA_LIB@ #" \
        -e 's/  */ /g'
}

for arch in $ARCHS; do
    out=$FIX/$arch
    rm -rf "$out"
    mkdir -p "$out" "$work/$arch"
    cd "$out"
    for f in a b c dp; do
        "$NVCC" -dlto -rdc=true -arch="$arch" -keep -keep-dir "$work/$arch" -c "$SRC/$f.cu" -o $f.o
    done
    cp "$work/$arch"/a.ltoir "$work/$arch"/b.ltoir "$work/$arch"/c.ltoir .
    # c.cu without LTO, for the partial-LTO refusal.
    "$NVCC" -rdc=true -arch="$arch" -c "$SRC/c.cu" -o c-nonlto.o

    "$NVCC" -dlto -dlink -arch="$arch" a.o b.o c.o -o "$work/dl.o" -dryrun 2>"$work/dryrun.txt"
    nvlink_command "$work/dryrun.txt" >cmd
    run=$(sed -e "s#@NVVM@#$work/nvvm#g" -e "s#@CUDA_LIB@#$CUDA_LIB#g" cmd)
    run=${run/#nvlink /$NVLINK }
    $run
    # The same link's PTX, and a link of the .ltoir files.
    $NVLINK -arch="$arch" -dlto -nvvmpath="$work/nvvm" a.o b.o c.o -emit-ptx -o nvlink.ptx
    $NVLINK -arch="$arch" -dlto -nvvmpath="$work/nvvm" a.ltoir b.ltoir c.ltoir -o nvlink-ltoir.cubin
    echo "$arch: $(cat cmd)"
done

cd "$FIX"
find . -type f ! -name SHA256SUMS | sort | xargs sha256sum >SHA256SUMS
