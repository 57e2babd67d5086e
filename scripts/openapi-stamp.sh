#!/usr/bin/env bash
# The hash the generated code was made from: the document and the generator's configuration.
set -euo pipefail
cd "$(dirname "$0")/.."
cat Sources/AccessAPI/openapi.yaml Sources/AccessAPI/openapi-generator-config.yaml | sha256sum | cut -d' ' -f1
