#!/usr/bin/env bash
# Regenerates Sources/AccessAPI/GeneratedSources from Sources/AccessAPI/openapi.yaml and
# openapi-generator-config.yaml with swift-openapi-generator (the version Package.swift pins), the glue
# (scripts/generate-glue.py: the aliases, the AccountClient methods, the app's Endpoint requests) and the
# tables the client and the backend read from the document, then stamps the hash of what it generated from,
# the generator version and the hash of every generated file (GeneratedSources/openapi.stamp) so
# GeneratedCodeStampTests can tell a stale copy or a hand edit. Needs PyYAML for the scripts (`make generate` installs it into .venv/).
# Usage: scripts/generate-openapi.sh   (or `make generate`)
set -euo pipefail
cd "$(dirname "$0")/.."

target=Sources/AccessAPI
# The generator is a dependency's executable product: built on demand here, never by `swift build`.
swift build --product swift-openapi-generator >/dev/null
generator="$(swift build --show-bin-path)/swift-openapi-generator"
rm -rf "$target/GeneratedSources"
"$generator" generate "$target/openapi.yaml" \
    --config "$target/openapi-generator-config.yaml" \
    --output-directory "$target/GeneratedSources"
scripts/generate-glue.py
scripts/contract-statuses.py
scripts/contract-bodies.py
scripts/openapi-document.py
scripts/contract-responses.py
swift format format --in-place Sources/AccessBackend/HTTP/ContractBodies.swift
# Last: the stamp hashes every file written above.
scripts/openapi-stamp.sh >"$target/GeneratedSources/openapi.stamp"
echo "regenerated $target/GeneratedSources and the glue from $target/openapi.yaml"
