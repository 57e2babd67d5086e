#!/usr/bin/env bash
# Checks the reference backend against Sources/AccessAPI/openapi.yaml with schemathesis: every
# check, every phase (examples, coverage, fuzzing, and the stateful phase that follows the
# document's links, e.g. request-otp → verify/resend/cancel), signed in as the scenario's user.
# Fails unless it ran at least CONTRACT_MIN_CASES cases with no failure; prints the counts.
# Assumes `swift build` already ran. Usage: scripts/contract-test.sh [BINARY]
set -euo pipefail

cd "$(dirname "$0")/.."
SCHEMATHESIS_VERSION=4.32.5
HYPOTHESIS_VERSION=6.170.15
BINARY=${1:-.build/debug/accessdeck}
MIN_CASES=${CONTRACT_MIN_CASES:-1000}

# Its own venv, on Python 3.13 where there is one: under 3.11 (3.11.7 here) hypothesis's
# ast.parse of schemathesis's own source can die with CPython's "AST constructor recursion depth
# mismatch" SystemError (fixed in newer CPythons), a crash of the tool, not a finding.
VENV=${CONTRACT_VENV:-.venv-contract}
newest_python() {
    local minor version path
    for minor in 3.13 3.12; do
        if python$minor -c '' 2>/dev/null; then command -v python$minor; return; fi
        # pyenv keeps versions it does not put on PATH.
        command -v pyenv >/dev/null || continue
        for version in $(pyenv versions --bare 2>/dev/null | grep "^$minor\." | sort -V -r); do
            path="$(pyenv root)/versions/$version/bin/python$minor"
            if [ -x "$path" ] && "$path" -c ''; then echo "$path"; return; fi
        done
    done
    command -v python3
}
PYTHON=${CONTRACT_PYTHON:-$(newest_python)}
if [ ! -x "$VENV/bin/st" ] || ! "$VENV/bin/st" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
    rm -rf "$VENV"
    "$PYTHON" -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" \
        "hypothesis==$HYPOTHESIS_VERSION"
fi

# shellcheck source=scripts/lib-serve.sh
source scripts/lib-serve.sh
REPORT_DIR=${CONTRACT_REPORT_DIR:-$(mktemp -d)}
cleanup() {
    stop_server || true
    [ -n "${CONTRACT_REPORT_DIR:-}" ] || rm -rf "$REPORT_DIR"
}
trap cleanup EXIT
# A user with standing delete blockers: the stateful phase reaches DELETE /me through the re-auth
# links, and on a user without blockers it would delete the account the whole run is signed in as,
# after which every other operation could only answer 401. Here DELETE /me answers its declared 409
# (delete_blocked) and the preflight's blockers, items and payout are checked against the schema.
# The successful delete is covered over real HTTP by Tests/AccessBackendTests/DeleteAccountTests.
start_server "$BINARY" --scenario coach-both
# A session minted by the admin API; the token goes to schemathesis only, never to the output.
TOKEN=$(access_token)

# Admin operations that reset or break the world (scenario load, faults, clock moves) are in the
# contract but left out here: schemathesis would otherwise take the server offline or sign itself out
# half-way through and learn nothing about the other operations. Log out is left out for the same reason:
# it ends the one session the whole run is signed in with (Tests/AccessBackendTests/LogoutTests covers it
# over real HTTP). schemathesis.toml (hooks for
# realistic phone numbers, the statuses a valid request may still get) is read from the root.
status=0
"$VENV/bin/st" run Sources/AccessAPI/openapi.yaml \
    --url "$BASE_URL" \
    --header "Authorization: Bearer $TOKEN" \
    --checks all \
    --phases examples,coverage,fuzzing,stateful \
    --exclude-path-regex '^(/_admin/(scenario|faults|clock/advance)|/auth/logout)$' \
    --max-examples "${CONTRACT_MAX_EXAMPLES:-100}" \
    --seed "${CONTRACT_SEED:-1}" \
    --workers 2 \
    --report ndjson --report-ndjson-path "$REPORT_DIR/events.ndjson" \
    --no-color || status=$?

# The counts, from schemathesis' own event log: every request it made is one case.
python3 - "$REPORT_DIR/events.ndjson" "$MIN_CASES" "$status" <<'PY'
import json, sys
path, minimum, status = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cases = 0
phases = {}
failures = 0
with open(path) as events:
    for line in events:
        event = json.loads(line)
        for name, body in event.items():
            if name == "ScenarioFinished":
                recorder = body.get("recorder", {})
                n = len(recorder.get("interactions", {}))
                cases += n
                phase = body.get("phase", "?")
                phases[phase] = phases.get(phase, 0) + n
                for checks in recorder.get("checks", {}).values():
                    failures += sum(1 for check in checks if check.get("status") == "failure")
print(f"contract: {cases} cases ({', '.join(f'{k} {v}' for k, v in sorted(phases.items()))}), {failures} failed checks")
if status != 0:
    sys.exit(status)
if failures:
    sys.exit(1)
if cases < minimum:
    print(f"contract: fewer than {minimum} cases", file=sys.stderr)
    sys.exit(1)
PY

# The run passed; the server must also stop cleanly on SIGTERM.
stop_server
