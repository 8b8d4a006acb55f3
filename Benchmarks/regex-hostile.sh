#!/usr/bin/env bash
# Runs `cse validate` on the hostile regex products and requests of Scripts/regex-hostile.py and
# prints, per case, the exit status, the CPU seconds (user + system) and the peak RSS, as measured
# by GNU time (`/usr/bin/time -v`). docs/SECURITY.md ("Regex work and memory budgets") records the
# figures; CI may run it after `swift build -c release --product cse`.
#
#   Benchmarks/regex-hostile.sh [path/to/cse]      (default: .build/release/cse)
#
# The budgets it shows: one request costs at most RegexPattern.maximumStepsPerRequest steps, and
# loading any product within the 1 MiB limit stays within the per-product compile budget.
# REGEX_HOSTILE_BIG_MAX_LIMIT_KB caps the address space of the 1 MiB heavy-fields case (ulimit -v),
# for builds without the compile budget, which need about 9 GB for it.
set -euo pipefail
cd "$(dirname "$0")/.."
CSE="${1:-.build/release/cse}"
[ -x "$CSE" ] || { echo "regex-hostile: no executable at $CSE (swift build -c release --product cse)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "regex-hostile: needs GNU time (/usr/bin/time, Debian package time)" >&2; exit 2; }
DIR="$(mktemp -d)"
trap 'rm -rf "$DIR"' EXIT
python3 Scripts/regex-hostile.py "$DIR" >/dev/null

run() {  # name product request [address-space limit in KiB]
    local name="$1" product="$2" request="$3" cap="${4:-unlimited}" status=0
    (ulimit -v "$cap"; exec /usr/bin/time -v -o "$DIR/time.txt" "$CSE" validate --product "$DIR/$product" --now 2026-05 \
        <"$DIR/$request" >"$DIR/out.txt" 2>"$DIR/err.txt") || status=$?
    local user sys rss
    user=$(awk -F': ' '/User time/ {print $2}' "$DIR/time.txt")
    sys=$(awk -F': ' '/System time/ {print $2}' "$DIR/time.txt")
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$DIR/time.txt")
    local what
    what=$(head -c 160 "$DIR/err.txt" | tr '\n' ' ')
    [ -n "$what" ] || what=$( (grep -o '"reason":"[a-zA-Z]*"' "$DIR/out.txt" || true) | sort | uniq -c | tr '\n' ' ' | tr -s ' ')
    [ -n "$what" ] || what=$(head -c 80 "$DIR/out.txt")
    printf '%-34s exit %-3s cpu %7.2f s  maxrss %8.1f MB  %s\n' "$name" "$status" \
        "$(echo "$user + $sys" | bc)" "$(echo "scale=1; $rss / 1024" | bc)" "$what"
}

run "slow: 15 x 64 KiB, 19,000-inst" slow-product.json slow-request.json
run "load: 300 distinct heavy fields" big-300.json big-request.json
run "load: 1,000 distinct heavy fields" big-1000.json big-request.json
run "load: 1 MiB of heavy fields" big-max.json big-request.json "${REGEX_HOSTILE_BIG_MAX_LIMIT_KB:-}"
run "load: 1 MiB of fallback fields" fallback-max.json big-request.json
run "edge: largest accepted, all used" edge-product.json edge-request.json
run "mix: 10 heavy x 60 KB + 16 ICU" mix-product.json mix-request.json
run "mix: 16 ICU first + 10 heavy" mixicu-product.json mixicu-request.json
