#!/usr/bin/env bash
# Compile a generated workload (bench/gen_workload.py) to relocatable cubins.
#
# usage: bench/build_workload.sh [-a sm_XX] [-j JOBS] [-o OUTDIR] [-c CACHEDIR] SRCDIR
#
#   SRCDIR      directory with tu_NNN.cu files
#   -a ARCH     target arch (default: $ARCH or sm_90)
#   -j JOBS     parallel nvcc processes (default: $JOBS or 2)
#   -o OUTDIR   where tu_NNN.cubin go (default: SRCDIR/../ARCH)
#   -c CACHE    content-addressed cubin cache (default: $CULD_BENCH_CACHE or
#               bench/work/cache); key = sha256(source, arch, flags, nvcc version)
#
# Environment: CUDA (default /usr/local/cuda), NVCC_EXTRA_FLAGS (appended to
# the nvcc command line and part of the cache key).
#
# Each TU is compiled as
#   $CUDA/bin/nvcc -arch=ARCH -rdc=true -cubin tu_NNN.cu -o tu_NNN.cubin
# Re-running with unchanged sources only copies cached cubins (fast).
set -euo pipefail

CUDA=${CUDA:-/usr/local/cuda}
NVCC=${NVCC:-$CUDA/bin/nvcc}
ARCH=${ARCH:-sm_90}
JOBS=${JOBS:-2}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${CULD_BENCH_CACHE:-$HERE/work/cache}
OUT=

while getopts "a:j:o:c:h" opt; do
    case $opt in
        a) ARCH=$OPTARG ;;
        j) JOBS=$OPTARG ;;
        o) OUT=$OPTARG ;;
        c) CACHE=$OPTARG ;;
        h) sed -n '2,19p' "$0"; exit 0 ;;
        *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $0 [-a sm_XX] [-j N] [-o OUTDIR] [-c CACHE] SRCDIR" >&2; exit 2; }
SRC=$(cd "$1" && pwd)
[ -n "$OUT" ] || OUT=$(dirname "$SRC")/$ARCH
[ -x "$NVCC" ] || { echo "error: nvcc not found at $NVCC (set CUDA=...)" >&2; exit 1; }
mkdir -p "$OUT" "$CACHE"
OUT=$(cd "$OUT" && pwd)
CACHE=$(cd "$CACHE" && pwd)

shopt -s nullglob
srcs=("$SRC"/tu_*.cu)
[ ${#srcs[@]} -gt 0 ] || { echo "error: no tu_*.cu in $SRC" >&2; exit 1; }

# Remove cubins whose source no longer exists (workload regenerated smaller).
for c in "$OUT"/tu_*.cubin; do
    b=$(basename "$c" .cubin)
    [ -e "$SRC/$b.cu" ] || rm -f "$c"
done

NVCC_VERSION=$("$NVCC" --version | tail -n 1)
FLAGS="-arch=$ARCH -rdc=true -cubin ${NVCC_EXTRA_FLAGS:-}"
KEYSALT="$NVCC_VERSION|$FLAGS"

# Decide which TUs miss the cache; hits are copied right away.
todo=$(mktemp)
trap 'rm -f "$todo"' EXIT
hits=0
for s in "${srcs[@]}"; do
    b=$(basename "$s" .cu)
    key=$( { printf '%s\n' "$KEYSALT"; cat "$s"; } | sha256sum | cut -c1-32)
    if [ -s "$CACHE/$key.cubin" ]; then
        cp -f "$CACHE/$key.cubin" "$OUT/$b.cubin"
        hits=$((hits + 1))
    else
        printf '%s %s %s\n' "$s" "$OUT/$b.cubin" "$CACHE/$key.cubin" >>"$todo"
    fi
done
misses=$(wc -l <"$todo")

t0=$(date +%s.%N)
if [ "$misses" -gt 0 ]; then
    export NVCC FLAGS
    # shellcheck disable=SC2016
    xargs -P "$JOBS" -L 1 sh -c '
        set -e
        tmp="$3.tmp.$$"
        $NVCC $FLAGS "$1" -o "$tmp"
        mv -f "$tmp" "$3"
        cp -f "$3" "$2"
    ' sh <"$todo"
fi
t1=$(date +%s.%N)

bytes=$(cat "$OUT"/tu_*.cubin | wc -c)
awk -v n="${#srcs[@]}" -v a="$ARCH" -v o="$OUT" -v h="$hits" -v m="$misses" \
    -v t0="$t0" -v t1="$t1" -v b="$bytes" 'BEGIN {
    printf "built %d cubins for %s in %s (%d cached, %d compiled in %.1fs, %.2f MB total)\n",
           n, a, o, h, m, t1 - t0, b / 1048576 }' >&2
