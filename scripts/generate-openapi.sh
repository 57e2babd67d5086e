#!/usr/bin/env bash
# Regenerates Sources/AccessAPI/GeneratedSources from Sources/AccessAPI/openapi.yaml and
# openapi-generator-config.yaml with swift-openapi-generator (the version Package.swift pins),
# and stamps the hash of what it generated from and the generator version
# (GeneratedSources/openapi.stamp) so GeneratedCodeStampTests can tell a stale copy.
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
scripts/openapi-stamp.sh >"$target/GeneratedSources/openapi.stamp"
scripts/contract-statuses.py
scripts/contract-bodies.py
scripts/openapi-document.py
swift format format --in-place Sources/AccessBackend/HTTP/ContractBodies.swift
echo "regenerated $target/GeneratedSources from $target/openapi.yaml"
