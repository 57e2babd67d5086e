# Sourced by the scripts that need a running `accessdeck serve`.
# start_server BINARY [extra serve args...] sets SERVER_PID and BASE_URL; stop_server ends it.

start_server() {
    local binary=$1
    shift
    SERVER_LOG=$(mktemp)
    "$binary" serve --port 0 "$@" >"$SERVER_LOG" 2>&1 &
    SERVER_PID=$!
    BASE_URL=""
    for _ in $(seq 1 200); do
        BASE_URL=$(sed -n 's/^listening on \(http:\/\/[^ ]*\)$/\1/p' "$SERVER_LOG" | head -n 1)
        [ -n "$BASE_URL" ] && break
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then
            echo "accessdeck serve exited early:" >&2
            cat "$SERVER_LOG" >&2
            return 1
        fi
        sleep 0.1
    done
    if [ -z "$BASE_URL" ]; then
        echo "accessdeck serve did not print its address in 20 s" >&2
        return 1
    fi
}

# Sends SIGTERM and returns the server's exit status: a clean stop is 0.
stop_server() {
    local status=0
    if [ -n "${SERVER_PID:-}" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID"
        wait "$SERVER_PID" || status=$?
        if [ "$status" != 0 ]; then
            echo "accessdeck serve exited with status $status after SIGTERM:" >&2
            cat "$SERVER_LOG" >&2
        fi
    fi
    SERVER_PID=""
    if [ -n "${SERVER_LOG:-}" ]; then rm -f "$SERVER_LOG"; fi
    SERVER_LOG=""
    return "$status"
}

# An access token for the scenario's user, from the admin API.
access_token() {
    curl -fsS -X POST "$BASE_URL/_admin/session" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["access_token"])'
}
