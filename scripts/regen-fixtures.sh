#!/usr/bin/env bash
# regen-fixtures.sh - rebuild tests/fixtures from tests/corpus with the real
# NVIDIA toolchains (nvcc + nvlink).  See docs/fixtures.md.
#
# Usage:
#   scripts/regen-fixtures.sh                 # all cases
#   scripts/regen-fixtures.sh 05-func-pointer 39-err-undef-func   # some cases
#
# Environment (all optional; the defaults are only this machine's layout):
#   CUDA13        root of the CUDA 13.0 toolkit          (default /usr/local/cuda)
#   CUDA11_BIN    dir holding the CUDA 11.8 nvcc + nvlink (default /usr/bin,
#                 Debian bookworm's nvidia-cuda-toolkit package)
#   CUDA11_PATH   extra dirs put in front of PATH for the 11.8 toolchain
#                 (default /usr/lib/nvidia-cuda-toolkit/bin)
#   CUDA11_CCBIN  host compiler for the 11.8 nvcc       (default clang++-14;
#                 11.8 refuses GCC 12)
#   JOBS          parallel jobs                          (default: nproc)
#   SKIP_LEGACY=1 do not build the CUDA 11.8 (legacy) fixtures
#
# A toolchain that is missing is skipped with a message; fixture directories
# that belong to a skipped toolchain are left untouched.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CORPUS=$ROOT/tests/corpus
FIX=$ROOT/tests/fixtures
SELF=$ROOT/scripts/regen-fixtures.sh

CUDA13=${CUDA13:-/usr/local/cuda}
CUDA11_BIN=${CUDA11_BIN:-/usr/bin}
CUDA11_PATH=${CUDA11_PATH:-/usr/lib/nvidia-cuda-toolkit/bin}
CUDA11_CCBIN=${CUDA11_CCBIN:-clang++-14}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# Versions the committed fixtures were made with.  Another version still
# works but prints a warning: the cubins will differ.
CUDA13_WANT="V13.0.88"
CUDA11_WANT="V11.8.89"

DEFAULT_ARCHS="sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a"

export LC_ALL=C
umask 022

# ---------------------------------------------------------------- helpers
# scrub_path FILE DIR: replaces every occurrence of the absolute path DIR in
# FILE with "/culd" followed by 'x' up to the same length.
scrub_path() {
    python3 - "$1" "$2" <<'PY'
import sys
path, d = sys.argv[1], sys.argv[2].encode()
data = open(path, 'rb').read()
if d in data:
    neutral = (b"/culd" + b"x" * len(d))[:len(d)]
    open(path, 'wb').write(data.replace(d, neutral))
PY
}

# conf_get FILE KEY [DEFAULT] (scripts/lib/case-conf.sh)
# shellcheck source=lib/case-conf.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/case-conf.sh"

# toolchain_env TC: sets TC_PATH (PATH to use) and TC_NVCC_EXTRA
toolchain_env() {
    case $1 in
    cuda13)
        TC_PATH="$CUDA13/bin:$PATH"
        TC_NVCC_EXTRA=()
        ;;
    cuda11)
        TC_PATH="$CUDA11_BIN:$CUDA11_PATH:$PATH"
        TC_NVCC_EXTRA=(-ccbin "$CUDA11_CCBIN")
        ;;
    *) echo "unknown toolchain $1" >&2; return 1 ;;
    esac
}

toolchain_version() { # TC -> "V13.0.88" or empty
    local TC_PATH TC_NVCC_EXTRA
    toolchain_env "$1"
    PATH=$TC_PATH nvcc_release_of nvcc
}

fixture_dir_name() { # ARCH TC
    if [ "$2" = cuda13 ]; then echo "$1"; else echo "$1-$2"; fi
}

# ---------------------------------------------------------------- one job
# run_job CASE ARCH TC : build one fixture directory; prints one result line
run_job() {
    local case=$1 arch=$2 tc=$3
    local conf=$CORPUS/$case/case.conf
    # `sources = <case>` compiles another case's files (the same program
    # linked with other flags).
    local cdir=$CORPUS/$(conf_get "$conf" sources "$case")
    local out
    out=$FIX/$case/$(fixture_dir_name "$arch" "$tc")
    local TC_PATH TC_NVCC_EXTRA
    toolchain_env "$tc"

    rm -rf "$out"
    mkdir -p "$out"

    local stems
    stems=$(conf_get "$conf" inputs "")
    if [ -z "$stems" ]; then
        stems=$(cd "$cdir" && printf '%s\n' *.cu | sed 's/\.cu$//' | sort | tr '\n' ' ')
    fi

    local nvcc_flags nvlink_flags expect expect_msg
    nvcc_flags=$(conf_get "$conf" nvcc_flags "")
    nvlink_flags=$(conf_get "$conf" nvlink_flags "")
    # expect.<toolchain> / expect_message.<toolchain> override for one toolchain
    expect=$(conf_get "$conf" "expect.$tc" "$(conf_get "$conf" expect ok)")
    expect_msg=$(conf_get "$conf" "expect_message.$tc" "$(conf_get "$conf" expect_message "")")

    local tmp
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/culd-fix.XXXXXX")

    local s carch fflags inputs=()
    for s in $stems; do
        carch=$arch
        if [ "$tc" = cuda13 ]; then
            carch=$(conf_get "$conf" "compile_arch.$s" "$arch")
        fi
        fflags=$(conf_get "$conf" "nvcc_flags.$s" "")
        # `input_kind.<stem> = ptx` links that file as PTX (nvlink compiles it).
        if [ "$(conf_get "$conf" "input_kind.$s" cubin)" = ptx ]; then
            if ! (cd "$cdir" && PATH=$TC_PATH nvcc "${TC_NVCC_EXTRA[@]}" -arch="$carch" -rdc=true -ptx \
                    $nvcc_flags $fflags "$s.cu" -o "$tmp/$s.ptx") >"$tmp/nvcc.log" 2>&1; then
                echo "FAIL $case $arch $tc: nvcc -ptx failed on $s.cu"
                rm -rf "$out" "$tmp"
                return 0
            fi
            cp "$tmp/$s.ptx" "$out/$s.ptx"
            inputs+=("$s.ptx")
            continue
        fi
        # Compile from inside the case directory with a relative file name so
        # that no machine path ends up in the cubin.
        # shellcheck disable=SC2086
        if ! (cd "$cdir" && PATH=$TC_PATH nvcc "${TC_NVCC_EXTRA[@]}" -arch="$carch" -rdc=true -cubin \
                $nvcc_flags $fflags "$s.cu" -o "$tmp/$s.cubin") >"$tmp/nvcc.log" 2>&1; then
            echo "FAIL $case $arch $tc: nvcc failed on $s.cu: $(head -c 300 "$tmp/nvcc.log" | tr '\n' ' ')"
            rm -rf "$out" "$tmp"
            return 0
        fi
        # Debug builds (-G) record the compile directory in their DWARF:
        # overwrite it with a same-length neutral path so no machine path is
        # committed (the ELF layout is unchanged; nvlink then links the
        # scrubbed cubins).
        scrub_path "$tmp/$s.cubin" "$cdir"
        cp "$tmp/$s.cubin" "$out/$s.cubin"
        inputs+=("$s.cubin")
    done

    # `prelink = yes`: the inputs are first linked by `nvlink -r` into
    # prelinked.cubin, which the link under test then takes alone (a final
    # link of a relocatable link's output).
    if [ "$(conf_get "$conf" prelink no)" = yes ]; then
        if ! (cd "$out" && PATH=$TC_PATH nvlink "-arch=$arch" -r "${inputs[@]}" -o prelinked.cubin) \
                >"$tmp/prelink.log" 2>&1; then
            echo "FAIL $case $arch $tc: nvlink -r failed: $(head -c 300 "$tmp/prelink.log" | tr '\n' ' ')"
            rm -rf "$out" "$tmp"
            return 0
        fi
        inputs=(prelinked.cubin)
    fi

    # nvlink runs inside the fixture dir, found through PATH, so argv0 and
    # every path it can print are relative.
    local cmd=(nvlink "-arch=$arch")
    # shellcheck disable=SC2206
    [ -n "$nvlink_flags" ] && cmd+=($nvlink_flags)
    cmd+=("${inputs[@]}" -o nvlink.cubin)
    printf '%s\n' "${cmd[*]}" >"$out/cmd"
    local rc=0
    (cd "$out" && PATH=$TC_PATH "${cmd[@]}" >nvlink.stdout 2>nvlink.stderr) || rc=$?
    echo "$rc" >"$out/nvlink.rc"
    if [ "$rc" -ne 0 ] && [ -e "$out/nvlink.cubin" ]; then
        # never happened with 13.0/11.8, but keep the contract: no output on error
        mv "$out/nvlink.cubin" "$tmp/partial.cubin"
    fi
    rm -rf "$tmp"

    # checks
    local status=PASS why=""
    check_nvlink_outcome "$expect" "$rc" "$expect_msg" "$out/nvlink.stderr"
    flag_path_leaks "$out"
    echo "$status $case $arch $tc rc=$rc $why"
}

if [ "${1-}" = "--job" ]; then
    shift
    run_job "$@"
    exit 0
fi

# ---------------------------------------------------------------- driver
START=$(date +%s)

have13=0 have11=0 v11=
v13=
if [ -x "$CUDA13/bin/nvcc" ] && [ -x "$CUDA13/bin/nvlink" ]; then
    v13=$(toolchain_version cuda13 || true)
fi
if [ "${v13#V13.}" != "$v13" ]; then
    have13=1
    [ "$v13" = "$CUDA13_WANT" ] || echo "warning: CUDA13 nvcc is $v13, fixtures were made with $CUDA13_WANT" >&2
else
    echo "skip: no CUDA 13.x nvcc+nvlink in CUDA13=$CUDA13/bin (got '${v13:-nothing}') - modern fixtures not rebuilt" >&2
fi
if [ "${SKIP_LEGACY:-0}" = 1 ]; then
    echo "skip: SKIP_LEGACY=1 - legacy (CUDA 11.8) fixtures not rebuilt" >&2
else
    if [ -x "$CUDA11_BIN/nvcc" ] && [ -x "$CUDA11_BIN/nvlink" ]; then
        v11=$(toolchain_version cuda11 || true)
    fi
    case $v11 in
    V11.*)
        if command -v "$CUDA11_CCBIN" >/dev/null; then
            have11=1
            [ "$v11" = "$CUDA11_WANT" ] || echo "warning: legacy nvcc is $v11, fixtures were made with $CUDA11_WANT" >&2
        else
            echo "skip: CUDA 11 nvcc found but host compiler $CUDA11_CCBIN missing - legacy fixtures not rebuilt" >&2
        fi
        ;;
    *)
        echo "skip: no CUDA 11.x nvcc+nvlink in CUDA11_BIN=$CUDA11_BIN (got '${v11:-nothing}') - legacy fixtures not rebuilt" >&2
        ;;
    esac
fi
if [ $have13 = 0 ] && [ $have11 = 0 ]; then
    echo "nothing to do: no toolchain available" >&2
    exit 0
fi

if [ $# -gt 0 ]; then
    cases=("$@")
    for c in "${cases[@]}"; do
        [ -f "$CORPUS/$c/case.conf" ] || { echo "no such case: $c" >&2; exit 2; }
    done
else
    mapfile -t cases < <(cd "$CORPUS" && printf '%s\n' */ | sed 's#/$##' | sort)
    # drop fixture dirs of cases that no longer exist
    if [ -d "$FIX" ]; then
        for d in "$FIX"/*/; do
            [ -d "$d" ] || continue
            n=$(basename "$d")
            [ -d "$CORPUS/$n" ] || { echo "removing stale fixtures $n"; rm -rf "$d"; }
        done
    fi
fi

mkdir -p "$FIX"
joblist=$(mktemp)
results=$(mktemp)
trap 'rm -f "$joblist" "$results"' EXIT

for c in "${cases[@]}"; do
    conf=$CORPUS/$c/case.conf
    # delete this case's fixtures for every toolchain we are about to rebuild
    if [ -d "$FIX/$c" ]; then
        for d in "$FIX/$c"/*/; do
            [ -d "$d" ] || continue
            case $(basename "$d") in *-cuda11) tcf=cuda11 ;; *) tcf=cuda13 ;; esac
            if { [ "$tcf" = cuda13 ] && [ $have13 = 1 ]; } ||
                { [ "$tcf" = cuda11 ] && [ $have11 = 1 ]; }; then
                rm -rf "$d"
            fi
        done
    fi
    archs=$(conf_get "$conf" archs default)
    archs=${archs//default/$DEFAULT_ARCHS}
    if [ $have13 = 1 ]; then
        for a in $archs; do echo "$c $a cuda13" >>"$joblist"; done
    fi
    if [ $have11 = 1 ]; then
        for a in $(conf_get "$conf" legacy_archs ""); do echo "$c $a cuda11" >>"$joblist"; done
    fi
done

njobs=$(wc -l <"$joblist")
echo "building $njobs fixture directories for ${#cases[@]} cases with $JOBS parallel jobs..."
xargs -P "$JOBS" -L 1 "$SELF" --job <"$joblist" | tee "$results" | grep -v '^PASS ' || true

# toolchain versions the fixtures were made with (keep the line of a skipped one)
{
    if [ $have13 = 1 ]; then echo "cuda13 $v13"; else grep '^cuda13 ' "$FIX/TOOLCHAINS" 2>/dev/null || true; fi
    if [ $have11 = 1 ]; then echo "cuda11 $v11"; else grep '^cuda11 ' "$FIX/TOOLCHAINS" 2>/dev/null || true; fi
} >"$FIX/TOOLCHAINS.new"
mv "$FIX/TOOLCHAINS.new" "$FIX/TOOLCHAINS"

# checksums of everything (sorted, relative paths): the determinism check
(cd "$FIX" && find . -type f ! -name SHA256SUMS -print0 | sort -z | xargs -0 sha256sum) >"$FIX/SHA256SUMS"

npass=$(grep -c '^PASS ' "$results" || true)
nbad=$((njobs - npass))
end=$(date +%s)
echo "----------------------------------------------------------------"
echo "toolchains: cuda13=$([ $have13 = 1 ] && echo "$v13" || echo skipped) cuda11=$([ $have11 = 1 ] && echo "$v11" || echo skipped)"
echo "cases: ${#cases[@]}  fixture dirs: $njobs  ok: $npass  problems: $nbad"
echo "nvlink ok: $(grep -c ' rc=0' "$results" || true)  nvlink error: $(grep -vc ' rc=0' "$results" || true)"
echo "size: $(du -sh "$FIX" | cut -f1)  time: $((end - START))s"
[ "$nbad" -eq 0 ]
