# shellcheck shell=bash
# Sourced by the fixture scripts: reading `key = value` case.conf files and
# judging what nvlink did with a case.

# conf_get FILE KEY [DEFAULT]: value of "KEY = value" in a case.conf
conf_get() {
    local file=$1 key=$2 def=${3-}
    local v
    v=$(awk -v k="$key" '
        /^[[:space:]]*(#|$)/ { next }
        {
            line = $0
            p = index(line, "=")
            if (p == 0) next
            kk = substr(line, 1, p - 1); vv = substr(line, p + 1)
            gsub(/^[[:space:]]+|[[:space:]]+$/, "", kk)
            gsub(/^[[:space:]]+|[[:space:]]+$/, "", vv)
            if (kk == k) { print vv; found = 1; exit }
        }
        END { if (!found) exit 1 }' "$file") || { printf '%s' "$def"; return 0; }
    printf '%s' "$v"
}

# nvcc_release_of NVCC: "V13.0.88" from `NVCC --version`, or empty
nvcc_release_of() {
    "$1" --version 2>/dev/null | sed -n 's/.*release [0-9.]*, \(V[0-9.]*\).*/\1/p' | head -n1
}

# check_nvlink_outcome EXPECT RC EXPECT_MSG STDERR_FILE: sets `status` and
# `why` for a case whose nvlink run should have succeeded (EXPECT=ok) or
# failed with a message containing EXPECT_MSG (EXPECT=error). Leaves them
# alone when nvlink did what the case expects.
check_nvlink_outcome() {
    local expect=$1 rc=$2 expect_msg=$3 stderr_file=$4
    if [ "$expect" = ok ] && [ "$rc" -ne 0 ]; then
        status=MISMATCH why="expected ok, nvlink rc=$rc: $(head -n2 "$stderr_file" | tr '\n' ' ')"
    elif [ "$expect" = error ] && [ "$rc" -eq 0 ]; then
        status=MISMATCH why="expected error, nvlink succeeded"
    elif [ "$expect" = error ] && [ -n "$expect_msg" ] && ! grep -qF -- "$expect_msg" "$stderr_file"; then
        status=MISMATCH why="message not found; stderr: $(head -n2 "$stderr_file" | tr '\n' ' ')"
    fi
}

# flag_path_leaks DIR: appends +PATHLEAK to `status` (and the files to `why`)
# when a fixture in DIR embeds a machine path - fixtures are committed.
flag_path_leaks() {
    local pattern='/(work|tmp|home|root|usr)/'
    if grep -qaE "$pattern" "$1"/* 2>/dev/null; then
        status="$status+PATHLEAK"
        why="$why machine path embedded in: $(grep -laE "$pattern" "$1"/* | xargs -n1 basename | tr '\n' ' ')"
    fi
}
