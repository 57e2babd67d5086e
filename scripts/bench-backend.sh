#!/usr/bin/env bash
# Requests/second and p50/p99 latency for GET /health and GET /me/auth-methods, measured with wrk.
# Usage: scripts/bench-backend.sh [BINARY] (a release build gives meaningful figures)
set -euo pipefail

cd "$(dirname "$0")/.."
BINARY=${1:-.build/release/accessdeck}
DURATION=${BENCH_DURATION:-5s}
CONNECTIONS=${BENCH_CONNECTIONS:-32}

if ! command -v wrk >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        apt-get install -y -qq wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
    else
        echo "wrk is not installed (apt-get install wrk)" >&2
        exit 1
    fi
fi

# shellcheck source=scripts/lib-serve.sh
source scripts/lib-serve.sh
trap stop_server EXIT
start_server "$BINARY"
TOKEN=$(access_token)

# Prints: name  req/s  p50  p99 (wrk --latency reports 50% and 99% lines).
measure() {
    local name=$1 path=$2
    shift 2
    local out
    out=$(wrk --latency -t 2 -c "$CONNECTIONS" -d "$DURATION" "$@" "$BASE_URL$path")
    local rps p50 p99 non2xx
    rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
    p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    non2xx=$(awk '/Non-2xx or 3xx responses:/ {print $NF}' <<<"$out")
    printf '%-22s %12s req/s   p50 %9s   p99 %9s%s\n' "$name" "$rps" "$p50" "$p99" \
        "${non2xx:+   (non-2xx: $non2xx)}"
}

echo "accessdeck serve ($BINARY), wrk -c $CONNECTIONS -d $DURATION"
measure "GET /health" /health
measure "GET /me/auth-methods" /me/auth-methods -H "Authorization: Bearer $TOKEN"
