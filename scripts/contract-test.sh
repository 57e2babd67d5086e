#!/usr/bin/env bash
# Checks the reference backend against Sources/AccessAPI/openapi.yaml with schemathesis: every
# check, every phase (examples, coverage, fuzzing, and the stateful phase that follows the
# document's links, e.g. request-otp → verify/resend/cancel), signed in as the scenario's user.
# Two phases, each on a fresh server: the public operations (and the admin reads), then the admin
# operations that change the world (scenario, faults, clock). Fails unless they ran at least
# CONTRACT_MIN_CASES and CONTRACT_ADMIN_MIN_CASES cases with no failure; prints the counts.
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

# The admin operations that reset or break the world: a scenario load, faults, clock moves.
WORLD_CHANGING='^/_admin/(scenario|faults|clock/advance)$'

# run_phase NAME [st run options...]: schemathesis against the server now running, its events kept in
# $REPORT_DIR/NAME.ndjson; sets phase_status.
run_phase() {
    local name=$1
    shift
    phase_status=0
    "$VENV/bin/st" run Sources/AccessAPI/openapi.yaml \
        --url "$BASE_URL" \
        --checks all \
        --phases examples,coverage,fuzzing,stateful \
        --max-examples "${CONTRACT_MAX_EXAMPLES:-100}" \
        --seed "${CONTRACT_SEED:-1}" \
        --workers 2 \
        --report ndjson --report-ndjson-path "$REPORT_DIR/$name.ndjson" \
        --no-color "$@" || phase_status=$?
}

# Phase 1, the public operations and the admin reads. A user with standing delete blockers: the stateful
# phase reaches DELETE /me through the re-auth links, and on a user without blockers it would delete the
# account the whole run is signed in as, after which every other operation could only answer 401. Here
# DELETE /me answers its declared 409 (delete_blocked) and the preflight's blockers, items and payout are
# checked against the schema. The successful delete is covered over real HTTP by
# Tests/AccessBackendTests/DeleteAccountTests.
start_server "$BINARY" --scenario coach-both
# A session minted by the admin API; the token goes to schemathesis only, never to the output.
TOKEN=$(access_token)
# The world-changing admin operations wait for phase 2: here schemathesis would take the server offline or
# sign itself out half-way through and learn nothing about the other operations. Log out is left out for
# the same reason: it ends the one session the whole run is signed in with
# (Tests/AccessBackendTests/LogoutTests covers it over real HTTP). schemathesis.toml (hooks for realistic
# phone numbers, the statuses a valid request may still get) is read from the root.
run_phase public --header "Authorization: Bearer $TOKEN" \
    --exclude-path-regex "$WORLD_CHANGING|^/auth/logout\$"
public_status=$phase_status
# The run must also stop cleanly on SIGTERM.
stop_server

# Phase 2, the world-changing admin operations alone, on a fresh server: whatever fault, clock or scenario
# they leave behind dies with it, and the only operations that run beside them are admin ones, which
# faults never touch (FaultService), so no check can fail for what another case switched on.
start_server "$BINARY" --scenario coach-both
run_phase admin --include-path-regex "$WORLD_CHANGING" --phases examples,coverage,fuzzing
admin_status=$phase_status

# The counts, from schemathesis' own event logs: every request it made is one case.
python3 - "$REPORT_DIR" "$MIN_CASES" "${CONTRACT_ADMIN_MIN_CASES:-100}" "$public_status" "$admin_status" <<'PY'
import json, sys
folder, minimum, admin_minimum = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
statuses = {"public": int(sys.argv[4]), "admin": int(sys.argv[5])}
failed = False
for name, least in (("public", minimum), ("admin", admin_minimum)):
    cases = 0
    phases = {}
    failures = 0
    with open(f"{folder}/{name}.ndjson") as events:
        for line in events:
            event = json.loads(line)
            for kind, body in event.items():
                if kind == "ScenarioFinished":
                    recorder = body.get("recorder", {})
                    n = len(recorder.get("interactions", {}))
                    cases += n
                    phase = body.get("phase", "?")
                    phases[phase] = phases.get(phase, 0) + n
                    for checks in recorder.get("checks", {}).values():
                        failures += sum(1 for check in checks if check.get("status") == "failure")
    print(f"contract ({name}): {cases} cases ({', '.join(f'{k} {v}' for k, v in sorted(phases.items()))}), {failures} failed checks")
    if statuses[name] != 0 or failures:
        failed = True
    elif cases < least:
        print(f"contract ({name}): fewer than {least} cases", file=sys.stderr)
        failed = True
sys.exit(1 if failed else 0)
PY

# Both phases passed; this server too must stop cleanly on SIGTERM.
stop_server
