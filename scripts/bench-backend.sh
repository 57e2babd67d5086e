#!/usr/bin/env bash
# Backend figures for `make bench`, measured with wrk; prints, asserts nothing.
#   1. GET /health, the Flask+gunicorn peer doing the same token lookup (scripts/bench/peer_app.py, on the same
#      SQLite file), then GET /me/auth-methods and a bare Hummingbird route (the floor: `accessdeck-bench
#      bare-server`) in turn, BENCH_ROUNDS times (5), and the ratios between them (the median round's);
#      beside the token-guarded read's ratio, the instructions per request of both under callgrind
#      (scripts/bench-instructions.sh), which the machine's load does not move (needs valgrind;
#      BENCH_INSTRUCTIONS=0 skips them, about a minute).
#   2. The mixed write load (scripts/bench/mixed-write.lua) five times in a row against one server,
#      so the tables grow from run to run: throughput per run and the spread.
#   3. A live scenario switch (POST /_admin/scenario, what the palette's "Scenario: NAME" sends), one
#      request at a time, beside GET /_admin/clock asked the same way.
# Usage: scripts/bench-backend.sh [BINARY] (a release build gives meaningful figures)
set -euo pipefail

cd "$(dirname "$0")/.."
BINARY=${1:-.build/release/accessdeck}
DURATION=${BENCH_DURATION:-5s}
CONNECTIONS=${BENCH_CONNECTIONS:-32}
MIXED_DURATION=${BENCH_MIXED_DURATION:-10s}
MIXED_RUNS=${BENCH_MIXED_RUNS:-5}
PEER_WORKERS=${BENCH_PEER_WORKERS:-2}

if ! command -v wrk >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        apt-get install -y -qq wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
    else
        echo "wrk is not installed (apt-get install wrk)" >&2
        exit 1
    fi
fi

WORK=$(mktemp -d)
PEER_PID=""
stop_all() {
    if [ -n "$PEER_PID" ] && kill -0 "$PEER_PID" 2>/dev/null; then
        kill -TERM "$PEER_PID"
        wait "$PEER_PID" 2>/dev/null || true
    fi
    stop_server || true
    rm -rf "$WORK"
}

# shellcheck source=scripts/lib-serve.sh
source scripts/lib-serve.sh
trap stop_all EXIT
# A database file of our own, so the peer can read the very same sessions.
start_server "$BINARY" --db "$WORK/bench.sqlite"
TOKEN=$(access_token)

# Sets RPS, P50, P99, NON2XX from one wrk run; extra arguments go to wrk, and SCRIPT_ARGS (an array)
# to its Lua script.
SCRIPT_ARGS=()
run_wrk() {
    local url=$1
    shift
    local out
    if [ ${#SCRIPT_ARGS[@]} -gt 0 ]; then
        out=$(wrk --latency -t 2 "$@" "$url" -- "${SCRIPT_ARGS[@]}")
    else
        out=$(wrk --latency -t 2 "$@" "$url")
    fi
    RPS=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
    P50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    P99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    NON2XX=$(awk '/Non-2xx or 3xx responses:/ {print $NF}' <<<"$out")
}

report() {
    printf '%-34s %12s req/s   p50 %9s   p99 %9s%s\n' "$1" "$RPS" "$P50" "$P99" "${NON2XX:+   (non-2xx: $NON2XX)}"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

echo "accessdeck serve ($BINARY), wrk -t 2 -c $CONNECTIONS -d $DURATION"
run_wrk "$BASE_URL/health" -c "$CONNECTIONS" -d "$DURATION"
report "GET /health"
HEALTH=$RPS

PEER=""
if [ -x .venv/bin/gunicorn ]; then
    PEER_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    ACCESSDECK_DB="$WORK/bench.sqlite" .venv/bin/gunicorn --workers "$PEER_WORKERS" --bind "127.0.0.1:$PEER_PORT" \
        --chdir scripts/bench --log-level warning peer_app:app >"$WORK/peer.log" 2>&1 &
    PEER_PID=$!
    for _ in $(seq 1 100); do
        curl -fsS -o /dev/null -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PEER_PORT/me/auth-methods" \
            2>/dev/null && break
        sleep 0.1
    done
    run_wrk "http://127.0.0.1:$PEER_PORT/me/auth-methods" -c "$CONNECTIONS" -d "$DURATION" \
        -H "Authorization: Bearer $TOKEN"
    report "peer: Flask+gunicorn ($PEER_WORKERS workers)"
    PEER=$RPS
    kill -TERM "$PEER_PID"
    wait "$PEER_PID" 2>/dev/null || true
    PEER_PID=""
else
    echo "peer: .venv/bin/gunicorn missing (make bench installs Flask and gunicorn into .venv)"
fi

# The floor: a bare Hummingbird route with /health's answer (`accessdeck-bench bare-server`), which is the
# most any route could serve on this machine. It runs beside ours, and the two are measured in turn, ROUNDS
# times: on these two cores, shared with wrk, one 5 s run of each moved the ratio from 0.5 to 0.74 between
# consecutive runs of the same binaries, so the median of the rounds is the figure, each round printed.
ROUNDS=${BENCH_ROUNDS:-5}
BARE=""
OURS=""
BARE_BIN="$(dirname "$BINARY")/accessdeck-bench"
if [ -x "$BARE_BIN" ]; then
    "$BARE_BIN" bare-server >"$WORK/bare.log" 2>&1 &
    BARE_PID=$!
    BARE_URL=""
    for _ in $(seq 1 100); do
        BARE_URL=$(sed -n 's/^listening on \(http:\/\/[^ ]*\)$/\1/p' "$WORK/bare.log" | head -n 1)
        [ -n "$BARE_URL" ] && break
        sleep 0.1
    done
    if [ -n "$BARE_URL" ]; then
        RATIOS=()
        OURS_RATES=()
        BARE_RATES=()
        for round in $(seq 1 "$ROUNDS"); do
            run_wrk "$BASE_URL/me/auth-methods" -c "$CONNECTIONS" -d "$DURATION" -H "Authorization: Bearer $TOKEN"
            report "GET /me/auth-methods ($round/$ROUNDS)"
            OURS_RATES+=("$RPS")
            ROUND_OURS=$RPS
            run_wrk "$BARE_URL/health" -c "$CONNECTIONS" -d "$DURATION"
            report "floor: bare Hummingbird ($round/$ROUNDS)"
            BARE_RATES+=("$RPS")
            RATIOS+=("$(ratio "$ROUND_OURS" "$RPS")")
        done
        median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
        OURS=$(median "${OURS_RATES[@]}")
        BARE=$(median "${BARE_RATES[@]}")
        RATIO_MEDIAN=$(median "${RATIOS[@]}")
        echo "  ratio per round: ${RATIOS[*]}"
    else
        echo "floor: accessdeck-bench bare-server did not start"
    fi
    kill -TERM "$BARE_PID" 2>/dev/null || true
    wait "$BARE_PID" 2>/dev/null || true
else
    echo "floor: $BARE_BIN missing (swift build -c release builds it)"
fi
if [ -z "$OURS" ]; then
    run_wrk "$BASE_URL/me/auth-methods" -c "$CONNECTIONS" -d "$DURATION" -H "Authorization: Bearer $TOKEN"
    report "GET /me/auth-methods"
    OURS=$RPS
fi

# Instructions per request under callgrind: the same comparison without the load of whatever else runs here.
INSTRUCTIONS=""
if [ "${BENCH_INSTRUCTIONS:-1}" != 0 ] && [ -x "$BARE_BIN" ] && command -v valgrind >/dev/null; then
    per_request() {
        scripts/bench-instructions.sh "$1" "$BARE_BIN" | sed -n 's/.* \([0-9][0-9]*\) instructions per request.*/\1/p'
    }
    OURS_I=$(per_request serve || true)
    BARE_I=$(per_request bare-server || true)
    if [ -n "$OURS_I" ] && [ -n "$BARE_I" ]; then
        INSTRUCTIONS="; callgrind: $((OURS_I / 1000))K vs $((BARE_I / 1000))K instructions a request,"
        INSTRUCTIONS+=" $(ratio "$BARE_I" "$OURS_I")x"
    fi
elif [ "${BENCH_INSTRUCTIONS:-1}" != 0 ]; then
    INSTRUCTIONS="; no instruction counts (valgrind or $BARE_BIN missing)"
fi

echo "ratios (same run):"
if [ -n "$BARE" ]; then
    # Issue 34: the token-guarded read against the floor any route here has.
    echo "  GET /me/auth-methods / bare Hummingbird   ${RATIO_MEDIAN}x   (median of $ROUNDS rounds; target >= 0.7$INSTRUCTIONS)"
fi
echo "  GET /me/auth-methods / GET /health        $(ratio "$OURS" "$HEALTH")x"
if [ -n "$PEER" ]; then
    echo "  GET /me/auth-methods / Flask+gunicorn     $(ratio "$OURS" "$PEER")x   (the peer, beside it)"
    if [ -n "$BARE" ]; then
        echo "  bare Hummingbird route / Flask+gunicorn   $(ratio "$BARE" "$PEER")x   (the ceiling for any route here)"
    fi
fi
if [ -n "$BARE" ]; then
    echo "  GET /health / bare Hummingbird route      $(ratio "$HEALTH" "$BARE")x   (what gateway, journal and contract layer leave)"
fi

echo
echo "mixed write load (request-otp, wrong verify, cancel, GET /me/auth-methods), $MIXED_RUNS runs of" \
    "$MIXED_DURATION, one server:"
# The caps across destinations (10 sends an hour for the account, 30 for an address: SendLimits) refuse every
# request-otp of a run after its first ten, so each run starts an hour on, with a fresh token (the last one's
# hour is over), and all runs have the same shape: ten codes inserted, then refusals, verifications and reads.
RATES=()
for run in $(seq 1 "$MIXED_RUNS"); do
    if [ "$run" -gt 1 ]; then
        curl -fsS -o /dev/null -X POST -H 'Content-Type: application/json' -d '{"seconds": 3600}' \
            "$BASE_URL/_admin/clock/advance"
        TOKEN=$(access_token)
    fi
    SCRIPT_ARGS=("$TOKEN" "$run")
    run_wrk "$BASE_URL" -c "$CONNECTIONS" -d "$MIXED_DURATION" -s scripts/bench/mixed-write.lua
    # The wrong-code verifications answer 401 by design: a quarter of the requests.
    report "  run $run"
    RATES+=("$RPS")
done
printf '%s\n' "${RATES[@]}" | awk '
    NR == 1 { min = $1; max = $1; first = $1 }
    { if ($1 < min) min = $1; if ($1 > max) max = $1; last = $1 }
    END { printf "  spread (max - min) / max: %.1f %%   last / first: %.2f   (target: flat within 10 %%)\n",
          (max - min) / max * 100, last / first }'

# One request at a time with curl: its time_total, in ms, median of SWITCHES.
SWITCHES=${BENCH_SWITCHES:-20}
median_ms() {
    local i
    for i in $(seq 1 "$SWITCHES"); do curl -fsS -o /dev/null -w '%{time_total}\n' "$@"; done |
        sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] * 1000 }'
}
echo
echo "live scenario switch, one request at a time, median of $SWITCHES:"
CLOCK_MS=$(median_ms "$BASE_URL/_admin/clock")
SWITCH_MS=$(median_ms -X POST -H 'Content-Type: application/json' -d '{"name": "default"}' "$BASE_URL/_admin/scenario")
echo "  POST /_admin/scenario {default}     $SWITCH_MS ms   ($(ratio "$SWITCH_MS" "$CLOCK_MS")x GET /_admin/clock: $CLOCK_MS ms)"
