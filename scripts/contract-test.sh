#!/usr/bin/env bash
# Checks the reference backend against Sources/AccessAPI/openapi.yaml with schemathesis.
# Assumes `swift build` already ran. Usage: scripts/contract-test.sh [BINARY]
set -euo pipefail

cd "$(dirname "$0")/.."
SCHEMATHESIS_VERSION=4.32.5
BINARY=${1:-.build/debug/accessdeck}

if [ ! -x .venv/bin/st ] || ! .venv/bin/st --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
    python3 -m venv .venv
    .venv/bin/pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

# shellcheck source=scripts/lib-serve.sh
source scripts/lib-serve.sh
trap stop_server EXIT
start_server "$BINARY"
TOKEN=$(access_token)

# Admin operations that reset or break the world (scenario load, faults, clock moves) are in the
# contract but left out here: schemathesis would otherwise take the server offline or sign itself out
# half-way through and learn nothing about the other operations.
.venv/bin/st run Sources/AccessAPI/openapi.yaml \
    --url "$BASE_URL" \
    --header "Authorization: Bearer $TOKEN" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
    --exclude-path-regex '^/_admin/(scenario|faults|clock/advance)$' \
    --max-examples "${CONTRACT_MAX_EXAMPLES:-30}" \
    --seed "${CONTRACT_SEED:-1}" \
    --workers 1 \
    --no-color

# The run passed; the server must also stop cleanly on SIGTERM.
stop_server
