#!/usr/bin/env bash
# What the generated code was made from: the hash of the document and the generator's configuration,
# and the generator's version as Package.swift pins it. GeneratedCodeStampTests compares both.
set -euo pipefail
cd "$(dirname "$0")/.."
hash=$(cat Sources/AccessAPI/openapi.yaml Sources/AccessAPI/openapi-generator-config.yaml | sha256sum | cut -d' ' -f1)
version=$(sed -n 's|.*swift-openapi-generator", exact: "\([0-9.]*\)".*|\1|p' Package.swift)
[ -n "$version" ] || { echo "Package.swift does not pin swift-openapi-generator exactly" >&2; exit 1; }
printf 'sha256 %s\nswift-openapi-generator %s\n' "$hash" "$version"
