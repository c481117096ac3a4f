#!/usr/bin/env bash
# CI: the swift-openapi-generator client committed in Sources/BasecampOpenAPIExample/Generated is
# exactly what Scripts/generate-openapi-client.sh makes from Spec/Basecamp/openapi.json and
# Scripts/OpenAPI/openapi-generator-config.yaml. Any difference fails.
# The first run builds the generator (debug, in .build-openapi-generator); later runs reuse it.
set -euo pipefail
cd "$(dirname "$0")/.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
Scripts/generate-openapi-client.sh "$tmp/generated" >/dev/null
echo "generated the OpenAPI example client in $(($(date +%s) - start)) s"

if ! diff -ru Sources/BasecampOpenAPIExample/Generated "$tmp/generated"; then
    echo "error: the generated OpenAPI client differs from Spec/Basecamp; run Scripts/generate-openapi-client.sh and commit the result" >&2
    exit 1
fi
echo "OpenAPI example client matches Spec/Basecamp"
