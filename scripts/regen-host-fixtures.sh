#!/usr/bin/env bash
# regen-host-fixtures.sh - rebuild tests/host-fixtures from tests/host-corpus
# with the real NVIDIA toolchain: nvcc -rdc=true host objects / archives, the
# nvlink command line that `nvcc -rdc=true -dryrun` prints for the final link,
# and what nvlink makes of it.  See docs/host-fixtures.md.
#
# Usage:
#   scripts/regen-host-fixtures.sh                      # all cases
#   scripts/regen-host-fixtures.sh 02-dynamic-parallelism 10-non-rdc-object
#
# Environment (all optional; the defaults are only this machine's layout):
#   CUDA13    root of the CUDA 13.0 toolkit                (default /usr/local/cuda)
#   CUDA_LIB  the toolkit's library dir with libcudadevrt.a
#             (default: $CUDA13/targets/*/lib)
#   CXX       host C++ compiler for the plain .cpp objects (default g++, the
#             compiler nvcc uses by default)
#   JOBS      parallel jobs                                (default: nproc)
#
# NOT reproducible byte for byte: nvcc puts a random module id into every host
# object (__nv_module_id, __cudaRegisterLinkedBinary_<id>, the names in
# nvlink.reg.c) and the host compiler's temporary file name (tmpxft_<pid>...)
# into the symbol table, so every run gives new objects, new nvlink.cubin and
# new nvlink.reg.c.  Commit one generation; SHA256SUMS only guards it.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CORPUS=$ROOT/tests/host-corpus
FIX=$ROOT/tests/host-fixtures
SELF=$ROOT/scripts/regen-host-fixtures.sh

CUDA13=${CUDA13:-/usr/local/cuda}
CXX=${CXX:-g++}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
if [ -z "${CUDA_LIB:-}" ]; then
    for d in "$CUDA13"/targets/*/lib "$CUDA13"/lib64; do
        if [ -f "$d/libcudadevrt.a" ]; then CUDA_LIB=$d; break; fi
    done
fi
CUDA_LIB=${CUDA_LIB:-}
export CUDA13 CUDA_LIB CXX

CUDA13_WANT="V13.0.88"
DEFAULT_ARCHS="sm_75 sm_80 sm_90"
# what @CUDA_LIB@ in `cmd` is replaced with when nvlink runs: the shared
# tests/host-fixtures/lib, relative to tests/host-fixtures/<case>/<arch>/
LIB_REL=../../lib

export LC_ALL=C
umask 022

# ---------------------------------------------------------------- helpers
# conf_get FILE KEY [DEFAULT] (scripts/lib/case-conf.sh)
# shellcheck source=lib/case-conf.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/case-conf.sh"

# conf_libs FILE: the <name>s of every "lib.<name> = ..." line
conf_libs() {
    awk '/^[[:space:]]*(#|$)/ { next }
         { p = index($0, "="); if (p == 0) next
           k = substr($0, 1, p - 1); gsub(/[[:space:]]+/, "", k)
           if (k ~ /^lib\./) print substr(k, 5) }' "$1"
}

in_list() { # WORD LIST...
    local w=$1 x
    shift
    for x in "$@"; do [ "$x" = "$w" ] && return 0; done
    return 1
}

# scrub FILE: replace machine paths and per-run temp names in dryrun output
scrub() {
    local cuda_real
    cuda_real=$(cd "$CUDA13" && pwd -P)
    SCRUB_CUDA=$CUDA13 SCRUB_CUDA_REAL=$cuda_real SCRUB_TMP=${TMPDIR:-/tmp} \
        SCRUB_PATH=$PATH SCRUB_BUILD=$2 perl -pi -e '
        s/\Q$ENV{SCRUB_BUILD}\E/\@BUILD\@/g;
        s/\Q$ENV{SCRUB_PATH}\E/\@PATH\@/g;
        s/\Q$ENV{SCRUB_CUDA_REAL}\E/\@CUDA\@/g;
        s/\Q$ENV{SCRUB_CUDA}\E/\@CUDA\@/g;
        s/\Q$ENV{SCRUB_TMP}\E\/tmpxft_[0-9a-f]{8}_[0-9a-f]{8}/\@TMP\@\/tmpxft_\@ID\@/g;
    ' "$1"
}

# ---------------------------------------------------------------- one job
# run_job CASE ARCH : build one fixture directory; prints one result line
run_job() {
    local case=$1 arch=$2
    local cdir=$CORPUS/$case conf=$CORPUS/$case/case.conf
    local out=$FIX/$case/$arch
    export PATH="$CUDA13/bin:$PATH"

    rm -rf "$out"
    mkdir -p "$out"

    local tmp
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/culd-hfix.XXXXXX")
    # the sources are copied and every tool runs inside $tmp with relative
    # file names, so no machine path reaches the objects
    (cd "$cdir" && cp -- *.cu "$tmp"/ && { cp -- *.cpp *.h *.cuh "$tmp"/ 2>/dev/null || true; })

    local nvcc_flags expect expect_msg host_cxx nonrdc link nvlink_drop
    nvcc_flags=$(conf_get "$conf" nvcc_flags "")
    expect=$(conf_get "$conf" expect ok)
    expect_msg=$(conf_get "$conf" expect_message "")
    host_cxx=$(conf_get "$conf" host_cxx "")
    nonrdc=$(conf_get "$conf" nonrdc "")
    link=$(conf_get "$conf" link "")
    nvlink_drop=$(conf_get "$conf" nvlink_drop "")

    local libs libmembers_cu="" l
    libs=$(conf_libs "$conf")
    for l in $libs; do
        if [ "$(conf_get "$conf" "lib_mode.$l" cu)" = cu ]; then
            libmembers_cu="$libmembers_cu $(conf_get "$conf" "lib.$l" "")"
        fi
    done

    # "sm_80+sm_90": one program for several archs (nvcc -gencode ...)
    local archflags=() g
    if [ "${arch#*+}" != "$arch" ]; then
        for g in ${arch//+/ }; do archflags+=(-gencode "arch=compute_${g#sm_},code=$g"); done
    else
        archflags=(-arch="$arch")
    fi

    local log=$tmp/build.log cmds=$out/build.cmds
    : >"$cmds"
    # step CMD...: run in $tmp, record it in build.cmds, fail the job on error
    step() {
        printf '%s\n' "$*" >>"$cmds"
        if ! (cd "$tmp" && "$@") >>"$log" 2>&1; then
            echo "FAIL $case $arch: '$*' failed: $(tail -c 400 "$log" | tr '\n' ' ')"
            return 1
        fi
    }

    # 1. objects: every .cu / .cpp of the case, except members of a library
    #    that is built straight from .cu files
    local stems s fflags objs=()
    stems=$(cd "$tmp" && for f in *.cu *.cpp; do if [ -e "$f" ]; then echo "${f%.*}"; fi; done | sort -u)
    for s in $stems; do
        # shellcheck disable=SC2086
        in_list "$s" $libmembers_cu && continue
        fflags=$(conf_get "$conf" "nvcc_flags.$s" "")
        # shellcheck disable=SC2086
        if in_list "$s" $host_cxx; then
            step "$CXX" -c $fflags "$s.cpp" -o "$s.o" || { rm -rf "$tmp" "$out"; return 0; }
        elif in_list "$s" $nonrdc; then
            step nvcc "${archflags[@]}" -c $nvcc_flags $fflags "$s.cu" -o "$s.o" || { rm -rf "$tmp" "$out"; return 0; }
        else
            step nvcc "${archflags[@]}" -rdc=true -c $nvcc_flags $fflags "$s.cu" -o "$s.o" || { rm -rf "$tmp" "$out"; return 0; }
        fi
        objs+=("$s.o")
    done

    # 2. libraries (nvcc -lib), from the .cu files or from the .o files
    local members mode m srcs
    for l in $libs; do
        members=$(conf_get "$conf" "lib.$l" "")
        mode=$(conf_get "$conf" "lib_mode.$l" cu)
        srcs=()
        for m in $members; do
            if [ "$mode" = cu ]; then srcs+=("$m.cu"); else srcs+=("$m.o"); fi
        done
        # shellcheck disable=SC2086
        step nvcc "${archflags[@]}" -rdc=true -lib $nvcc_flags "${srcs[@]}" -o "lib$l.a" || { rm -rf "$tmp" "$out"; return 0; }
    done

    # 3. the final link, dry run: which nvlink command would nvcc run?
    local linkargs=()
    if [ -n "$link" ]; then
        # shellcheck disable=SC2206
        linkargs=($link)
    else
        linkargs=("${objs[@]}")
    fi
    local nvcc_link=(nvcc "${archflags[@]}" -rdc=true "${linkargs[@]}" -o app)
    printf '%s\n' "${nvcc_link[*]}" >"$out/nvcc.cmd"
    if ! (cd "$tmp" && "${nvcc_link[@]}" -dryrun) >"$out/dryrun.txt" 2>&1; then
        echo "FAIL $case $arch: nvcc -dryrun failed: $(tail -c 300 "$out/dryrun.txt" | tr '\n' ' ')"
        rm -rf "$tmp" "$out"
        return 0
    fi
    local nlines
    nlines=$(grep -c '^#\$ nvlink ' "$out/dryrun.txt" || true)
    if [ "$nlines" -lt 1 ]; then
        echo "FAIL $case $arch: no nvlink line in the dry run"
        rm -rf "$tmp" "$out"
        return 0
    fi

    # 4. rewrite temp paths of every nvlink line: outputs -> nvlink.cubin
    #    (nvlink.<sm>.cubin for a multi-arch build) / nvlink.reg.c, the
    #    toolkit library dir -> @CUDA_LIB@
    local libreal line nv new i a p skip bad="" outname lines=()
    libreal=$(cd "$CUDA_LIB" && pwd -P)
    while IFS= read -r line; do
        line=${line#'#$ '}
        nv=()
        # nvcc prints the command shell-quoted; let the shell split it
        eval "nv=( $line )"
        outname=nvlink.cubin
        if [ "$nlines" -gt 1 ]; then
            for a in "${nv[@]}"; do
                case $a in --arch=* | -arch=*) outname=nvlink.${a#*=}.cubin ;; esac
            done
        fi
        new=() skip=0
        for ((i = 0; i < ${#nv[@]}; i++)); do
            a=${nv[i]}
            if [ $skip = 1 ]; then skip=0; continue; fi
            # shellcheck disable=SC2086
            if [ -n "$nvlink_drop" ] && in_list "$a" $nvlink_drop; then continue; fi
            case $a in
            --register-link-binaries=*) new+=("--register-link-binaries=nvlink.reg.c") ;;
            --register-link-binaries | -register-link-binaries) new+=("$a" nvlink.reg.c); skip=1 ;;
            -o) new+=(-o "$outname"); skip=1 ;;
            -L/*)
                p=${a#-L}
                if [ "${p%/stubs}" != "$p" ] && [ "$(cd "${p%/stubs}" 2>/dev/null && pwd -P)" = "$libreal" ]; then
                    new+=("-L@CUDA_LIB@/stubs")
                elif [ "$(cd "$p" 2>/dev/null && pwd -P)" = "$libreal" ]; then
                    new+=("-L@CUDA_LIB@")
                else
                    bad="$bad $a"
                    new+=("$a")
                fi
                ;;
            /*) bad="$bad $a"; new+=("$a") ;;
            *) new+=("$a") ;;
            esac
        done
        lines+=("${new[*]}")
    done < <(grep '^#\$ nvlink ' "$out/dryrun.txt")
    printf '%s\n' "${lines[@]}" >"$out/cmd"

    # 5. the inputs nvlink reads: the objects and archives named on the lines
    #    (-l<name> -> lib<name>.a from the build dir)
    for line in "${lines[@]}"; do
        for a in $line; do
            case $a in
            -l*) if [ -f "$tmp/lib${a#-l}.a" ]; then cp "$tmp/lib${a#-l}.a" "$out/"; fi ;;
            -*) ;;
            *.o | *.a) if [ -f "$tmp/$a" ]; then cp "$tmp/$a" "$out/"; fi ;;
            esac
        done
    done
    scrub "$out/dryrun.txt" "$tmp"
    scrub "$out/build.cmds" "$tmp"

    # 6. run nvlink for real, inside the fixture dir, with @CUDA_LIB@ ->
    #    the shared tests/host-fixtures/lib; several lines (multi-arch) run in
    #    order, like nvcc does, and share nvlink.reg.c
    local rc=0 r run
    : >"$out/nvlink.stdout"
    : >"$out/nvlink.stderr"
    : >"$out/nvlink.rc"
    for line in "${lines[@]}"; do
        r=0
        # shellcheck disable=SC2086
        read -r -a run <<<"${line//@CUDA_LIB@/$LIB_REL}"
        (cd "$out" && "${run[@]}" >>nvlink.stdout 2>>nvlink.stderr) || r=$?
        echo "$r" >>"$out/nvlink.rc"
        [ "$r" -eq 0 ] || rc=$r
    done
    rm -rf "$tmp"

    # checks
    local status=PASS why=""
    check_nvlink_outcome "$expect" "$rc" "$expect_msg" "$out/nvlink.stderr"
    if [ -n "$bad" ]; then
        status=MISMATCH why="unexpected absolute path(s) on the nvlink line:$bad"
    elif [ "$status" = PASS ] && [ "$expect" = ok ] && [ ! -s "$out/nvlink.reg.c" ]; then
        status=MISMATCH why="no nvlink.reg.c"
    fi
    flag_path_leaks "$out"
    echo "$status $case $arch rc=$rc $why"
}

if [ "${1-}" = "--job" ]; then
    shift
    run_job "$@"
    exit 0
fi

# ---------------------------------------------------------------- driver
START=$(date +%s)

v13=
if [ -x "$CUDA13/bin/nvcc" ] && [ -x "$CUDA13/bin/nvlink" ]; then
    v13=$(nvcc_release_of "$CUDA13/bin/nvcc")
fi
if [ "${v13#V13.}" = "$v13" ]; then
    echo "nothing to do: no CUDA 13.x nvcc+nvlink in CUDA13=$CUDA13/bin (got '${v13:-nothing}')" >&2
    exit 0
fi
[ "$v13" = "$CUDA13_WANT" ] || echo "warning: CUDA13 nvcc is $v13, fixtures were made with $CUDA13_WANT" >&2
if [ -z "$CUDA_LIB" ] || [ ! -f "$CUDA_LIB/libcudadevrt.a" ]; then
    echo "error: no libcudadevrt.a under CUDA13=$CUDA13 (set CUDA_LIB)" >&2
    exit 1
fi
command -v "$CXX" >/dev/null || { echo "error: host compiler CXX=$CXX not found" >&2; exit 1; }

if [ $# -gt 0 ]; then
    cases=("$@")
    for c in "${cases[@]}"; do
        [ -f "$CORPUS/$c/case.conf" ] || { echo "no such case: $c" >&2; exit 2; }
    done
else
    mapfile -t cases < <(cd "$CORPUS" && printf '%s\n' */ | sed 's#/$##' | sort)
    if [ -d "$FIX" ]; then
        for d in "$FIX"/*/; do
            [ -d "$d" ] || continue
            n=$(basename "$d")
            [ "$n" = lib ] && continue
            [ -d "$CORPUS/$n" ] || { echo "removing stale fixtures $n"; rm -rf "$d"; }
        done
    fi
fi

# the one shared copy of the device runtime library (what -L@CUDA_LIB@ means)
mkdir -p "$FIX/lib"
cp "$CUDA_LIB/libcudadevrt.a" "$FIX/lib/libcudadevrt.a"

joblist=$(mktemp)
results=$(mktemp)
trap 'rm -f "$joblist" "$results"' EXIT
for c in "${cases[@]}"; do
    rm -rf "${FIX:?}/$c"
    archs=$(conf_get "$CORPUS/$c/case.conf" archs default)
    archs=${archs//default/$DEFAULT_ARCHS}
    for a in $archs; do echo "$c $a" >>"$joblist"; done
done

njobs=$(wc -l <"$joblist")
echo "building $njobs host fixture directories for ${#cases[@]} cases with $JOBS parallel jobs..."
xargs -P "$JOBS" -L 1 "$SELF" --job <"$joblist" | tee "$results" | grep -v '^PASS ' || true

{
    echo "cuda13 $v13"
    echo "cxx $("$CXX" --version | head -n1)"
} >"$FIX/TOOLCHAINS"
(cd "$FIX" && find . -type f ! -name SHA256SUMS -print0 | sort -z | xargs -0 sha256sum) >"$FIX/SHA256SUMS"

npass=$(grep -c '^PASS ' "$results" || true)
nbad=$((njobs - npass))
end=$(date +%s)
echo "----------------------------------------------------------------"
echo "toolchain: cuda13=$v13 cxx=$CXX"
echo "cases: ${#cases[@]}  fixture dirs: $njobs  ok: $npass  problems: $nbad"
echo "size: $(du -sh "$FIX" | cut -f1)  time: $((end - START))s"
[ "$nbad" -eq 0 ]
