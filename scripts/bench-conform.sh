#!/usr/bin/env bash
# `accessdeck conform` against `accessdeck serve` (issue 46 item 6): where a whole run's time goes. Prints, asserts
# nothing. The run moves the reference backend's clock, so it waits for real only in fault.timeout (3 s); the rest
# is work: the server's CPU (mostly bcrypt, at PasswordHasher.cost, for every password a check sets or tries) and
# conform's. What is left of the wall time is neither process on a core: waiting for one (other load on the
# machine), or idle.
# Usage: scripts/bench-conform.sh [BINARY] (a release build gives meaningful figures)
set -euo pipefail

cd "$(dirname "$0")/.."
BINARY=${1:-.build/release/accessdeck}
[ -x "$BINARY" ] || { echo "no executable at $BINARY (swift build -c release)" >&2; exit 1; }
# shellcheck source=scripts/lib-serve.sh
. scripts/lib-serve.sh

ticks=$(getconf CLK_TCK)
# utime + stime of a process in seconds; the command name in field 2 may hold spaces, so count after its ")".
cpu_seconds() { sed 's/.*) //' "/proc/$1/stat" | awk -v t="$ticks" '{ printf "%.2f", ($12 + $13) / t }'; }

# --max-worlds 4: admin.world_limit fills the server up to its cap, as the conform tests do.
start_server "$BINARY" --max-worlds 4
trap stop_server EXIT
before=$(cpu_seconds "$SERVER_PID")
report=$(mktemp)
start=$(date +%s.%N)
# bash's `time` gives the child's own CPU; its summary line ends with the run's wall time.
TIMEFORMAT='%U %S'
client=$({ time "$BINARY" conform --backend "$BASE_URL" >"$report" 2>/dev/null; } 2>&1) || true
end=$(date +%s.%N)
after=$(cpu_seconds "$SERVER_PID")

awk -v start="$start" -v end="$end" -v before="$before" -v after="$after" -v client="$client" 'BEGIN {
    split(client, c, " ")
    wall = end - start; server = after - before; own = c[1] + c[2]
    printf "conform, whole catalogue:  %.1f s wall\n", wall
    printf "  server CPU               %.1f s\n", server
    printf "  conform CPU              %.1f s\n", own
    printf "  neither on a core        %.1f s (fault.timeout waits 3 s; the rest is load or idle)\n", wall - server - own
}'
echo "  summary: $(tail -n 1 "$report")"
# A verdict other than kept or skipped, with its lines (a figure measured on a run that did not pass says so).
grep -A 3 -E '^(BROKEN|cannot tell) ' "$report" | sed 's/^/  /' || true
rm -f "$report"
