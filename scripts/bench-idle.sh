#!/bin/sh
# Idle cost of the TUI: CPU time the app uses in 10 s of sitting on its first screen.
# Prints figures only; asserts nothing. Needs tmux and a built binary
# (ACCESSDECK_BIN, default .build/debug/accessdeck).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${ACCESSDECK_BIN:-$root/.build/debug/accessdeck}
seconds=${IDLE_SECONDS:-10}
socket="accessdeck-bench-$$"
conf=$(mktemp)
printf 'set -g status off\nset -g remain-on-exit on\n' >"$conf"

cleanup() {
    tmux -L "$socket" kill-server 2>/dev/null || true
    rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$socket"
    rm -f "$conf"
}
trap cleanup EXIT INT TERM

[ -x "$bin" ] || { echo "no executable at $bin (run swift build or set ACCESSDECK_BIN)" >&2; exit 1; }

tmux -L "$socket" -f "$conf" new-session -d -s bench -x 100 -y 30 \
    "exec env -u NO_COLOR TERM=tmux-256color LANG=C.UTF-8 '$bin'"

tries=0
until tmux -L "$socket" capture-pane -p -t bench | grep -q Settings; do
    tries=$((tries + 1))
    [ "$tries" -lt 200 ] || { echo "Settings never appeared" >&2; exit 1; }
    sleep 0.05
done

pid=$(tmux -L "$socket" display-message -p -t bench '#{pane_pid}')
ticks_per_second=$(getconf CLK_TCK)

# Fields 14 and 15 of /proc/PID/stat (utime, stime) in clock ticks; the command name in field
# 2 may contain spaces, so count from after its closing parenthesis.
cpu_ticks() { sed 's/.*) //' "/proc/$pid/stat" | awk '{ print $12 + $13 }'; }

before=$(cpu_ticks)
sleep "$seconds"
after=$(cpu_ticks)

echo "idle $seconds s: $(((after - before) * 1000 / ticks_per_second)) ms CPU (pid $pid, $ticks_per_second ticks/s, startup $((before * 1000 / ticks_per_second)) ms CPU)"
