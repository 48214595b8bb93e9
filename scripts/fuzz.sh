#!/usr/bin/env bash
# Builds culd's libFuzzer harnesses (clang-14, ASan + UBSan) into
# ${FUZZ_BUILD_DIR:-build-fuzz}, makes seed corpora from the committed test
# inputs, and runs every harness for the given seconds (default 60) with
# -rss_limit_mb=1024. Findings (crash-*, leak-*, timeout-*, oom-*) land in
# <build>/fuzz-findings/<harness>/ and make the script fail.
#   scripts/fuzz.sh [seconds] [harness...]
# Environment: FUZZ_RUNS stops each harness after that many executions
# (the seconds still bound it), CXX/CC (default clang-14).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SECONDS_EACH=${1:-60}
shift || true
HARNESSES=("$@")
[ ${#HARNESSES[@]} -gt 0 ] || HARNESSES=(elf host_object fatbin archive nvinfo link)
BUILD=${FUZZ_BUILD_DIR:-build-fuzz}

cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER="${CXX:-clang++-14}" -DCMAKE_C_COMPILER="${CC:-clang-14}" \
    -DCULD_FUZZ=ON -DCULD_BUILD_TESTS=OFF >/dev/null
cmake --build "$BUILD" --parallel "$(nproc)" --target fuzzers
cmake --build "$BUILD" --parallel "$(nproc)" # the plugins the link harness loads

SEEDS=$BUILD/fuzz-seeds
rm -rf "$SEEDS"
mkdir -p "$SEEDS"/{elf,host_object,fatbin,archive,nvinfo,link}
# A stable sample of the fixtures keeps start-up short; libFuzzer mutates
# from there.
sample() { find "$@" -type f 2>/dev/null | LC_ALL=C sort | awk 'NR % 7 == 1'; }
i=0
for f in $(sample tests/fixtures -name '*.cubin'); do
    i=$((i + 1))
    cp "$f" "$SEEDS/elf/$i.cubin"
    # link: option byte, arch byte, then the file (see fuzz_link.cpp).
    { printf "\\x$(printf %02x $((i % 64)))\\x$(printf %02x $((i % 7)))"; cat "$f"; } \
        >"$SEEDS/link/$i"
done
for f in $(find tests/inputs tests/host-fixtures -type f -name '*.o' | LC_ALL=C sort); do
    i=$((i + 1))
    cp "$f" "$SEEDS/host_object/$i.o"
    { printf '\x08\x01'; cat "$f"; } >"$SEEDS/link/$i"
done
cp tests/inputs/*.fatbin "$SEEDS/fatbin/"
for f in $(find tests/inputs tests/host-fixtures -type f -name '*.a' | LC_ALL=C sort); do
    i=$((i + 1))
    cp "$f" "$SEEDS/archive/$i.a"
done
python3 - "$SEEDS/elf" "$SEEDS/nvinfo" <<'PY'
# The .nv.info* sections of the ELF seeds become the nvinfo seeds.
import os, struct, sys
src, dst = sys.argv[1:]
n = 0
for name in sorted(os.listdir(src)):
    b = open(os.path.join(src, name), 'rb').read()
    shoff, = struct.unpack_from('<Q', b, 0x28)
    shnum, shstrndx = struct.unpack_from('<HH', b, 0x3c)
    secs = [struct.unpack_from('<IIQQQQIIQQ', b, shoff + 64 * i) for i in range(shnum)]
    strs = secs[shstrndx]
    for s in secs:
        o = strs[4] + s[0]
        if b[o:b.index(0, o)].startswith(b'.nv.info') and n < 400:
            n += 1
            open(os.path.join(dst, str(n)), 'wb').write(b[s[4]:s[4] + s[5]])
PY

FINDINGS=$BUILD/fuzz-findings
status=0
for h in "${HARNESSES[@]}"; do
    mkdir -p "$FINDINGS/$h" "$BUILD/fuzz-corpus/$h"
    log=$BUILD/fuzz-$h.log
    set +e
    "$BUILD/tests/fuzz/fuzz_$h" "$BUILD/fuzz-corpus/$h" "$SEEDS/$h" \
        -dict="$ROOT/tests/fuzz/culd.dict" -max_total_time="$SECONDS_EACH" \
        -rss_limit_mb=1024 -malloc_limit_mb=1024 -timeout=10 -max_len=262144 \
        -close_fd_mask=3 -print_final_stats=1 ${FUZZ_RUNS:+-runs=$FUZZ_RUNS} \
        -artifact_prefix="$FINDINGS/$h/" >"$log" 2>&1
    rc=$?
    set -e
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | awk '{s+=$2} END {print s+0}')
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}')
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | awk '{print $2}')
    findings=$(find "$FINDINGS/$h" -type f | wc -l)
    echo "fuzz $h: $runs executions, coverage $cov edges, $ft features, $findings findings (rc $rc)"
    if [ "$rc" -ne 0 ] || [ "$findings" -ne 0 ]; then
        status=1
        tail -40 "$log"
    fi
done
exit $status
