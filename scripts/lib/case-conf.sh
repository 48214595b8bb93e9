# Sourced by the fixture scripts: reading `key = value` case.conf files.

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
