#!/usr/bin/env bash
# Issue 45 item 7, for `make bench`: the anonymous routes whose time must not tell an address with an account
# from one without. POST /auth/password/reset and POST /auth/recovery/start, one request at a time, known and
# unknown in turn, each after a day on the clock so that no send limit answers instead (the clock's move is
# not measured); the median of BENCH_PROBES (21) each. Prints, asserts nothing.
# Usage: scripts/bench-address-timing.sh [BINARY] (a release build gives meaningful figures)
set -euo pipefail

cd "$(dirname "$0")/.."
BINARY=${1:-.build/release/accessdeck}
PROBES=${BENCH_PROBES:-21}
KNOWN=jdoe@mail.com
UNKNOWN=nobody@mail.com

WORK=$(mktemp -d)
stop_all() {
    stop_server || true
    rm -rf "$WORK"
}
# shellcheck source=scripts/lib-serve.sh
source scripts/lib-serve.sh
trap stop_all EXIT
start_server "$BINARY"

DEVICE='{"device_name": "bench", "system_name": "Linux", "system_version": "1", "identifier": "bench-1",
    "public_key": "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc="}'

# One request's time_total in seconds, after a day on the clock; anything but its 202 stops the run.
probe() {
    local path=$1 body=$2 answer
    curl -fsS -o /dev/null -X POST -H 'Content-Type: application/json' -d '{"seconds": 86400}' \
        "$BASE_URL/_admin/clock/advance"
    answer=$(curl -sS -o /dev/null -w '%{http_code} %{time_total}' -X POST -H 'Content-Type: application/json' \
        -d "$body" "$BASE_URL$path")
    if [ "${answer%% *}" != 202 ]; then
        echo "POST $path answered ${answer%% *}, not 202" >&2
        exit 1
    fi
    echo "${answer#* }"
}
median_ms() { sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] * 1000 }'; }

echo "known ($KNOWN) and unknown ($UNKNOWN) address, one request at a time in turn, median of $PROBES ($BINARY):"
for route in /auth/password/reset /auth/recovery/start; do
    : >"$WORK/known"
    : >"$WORK/unknown"
    for _ in $(seq 1 "$PROBES"); do
        for who in known unknown; do
            email=$([ "$who" = known ] && echo "$KNOWN" || echo "$UNKNOWN")
            if [ "$route" = /auth/password/reset ]; then
                body="{\"email\": \"$email\"}"
            else
                body="{\"email\": \"$email\", \"device\": $DEVICE}"
            fi
            probe "$route" "$body" >>"$WORK/$who"
        done
    done
    known_ms=$(median_ms <"$WORK/known")
    unknown_ms=$(median_ms <"$WORK/unknown")
    printf '  POST %-22s known %7s ms   unknown %7s ms   known / unknown %s\n' "$route" "$known_ms" "$unknown_ms" \
        "$(awk -v a="$known_ms" -v b="$unknown_ms" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')"
done
