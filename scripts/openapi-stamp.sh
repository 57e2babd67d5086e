#!/usr/bin/env bash
# What the generated code was made from, and what it is: the hash of its inputs (the document, the two
# generators' configurations and the scripts that write the glue and the tables), the generator's version as Package.swift pins it, then
# one line per generated file with its hash. GeneratedCodeStampTests compares all of them with what is checked
# in: a document changed without `make generate` fails it, and so does a generated file edited by hand.
# Run last by scripts/generate-openapi.sh, once every generated file is written (and formatted).
set -euo pipefail
cd "$(dirname "$0")/.."
inputs=(
    Sources/AccessAPI/openapi.yaml Sources/AccessAPI/openapi-generator-config.yaml
    Sources/AccessAPI/openapi-glue-config.yaml scripts/generate-glue.py scripts/contract-statuses.py
    scripts/contract-bodies.py scripts/openapi-document.py scripts/contract-responses.py
)
hash=$(cat "${inputs[@]}" | sha256sum | cut -d' ' -f1)
version=$(sed -n 's|.*swift-openapi-generator", exact: "\([0-9.]*\)".*|\1|p' Package.swift)
[ -n "$version" ] || { echo "Package.swift does not pin swift-openapi-generator exactly" >&2; exit 1; }
printf 'sha256 %s\nswift-openapi-generator %s\n' "$hash" "$version"
# Every file `make generate` writes; GeneratedCodeStampTests also checks that no other Swift file sits in the
# generated folders.
generated=(
    Sources/AccessAPI/GeneratedSources/*.swift Sources/AccessAPI/GeneratedGlue/*.swift
    Sources/AccessApp/GeneratedGlue/*.swift Sources/AccessAPI/Client/ContractStatuses.swift
    Sources/AccessBackend/HTTP/ContractBodies.swift Sources/AccessBackend/HTTP/OpenAPIDocument.swift
    Sources/AccessProxy/ContractResponses.swift
)
for file in "${generated[@]}"; do
    printf 'file %s %s\n' "$(sha256sum "$file" | cut -d' ' -f1)" "$file"
done
