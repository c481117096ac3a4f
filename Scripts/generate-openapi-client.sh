#!/usr/bin/env bash
# Regenerates the swift-openapi-generator client that Sources/BasecampOpenAPIExample runs through
# HTTPCoreOpenAPI, from a subset of Spec/Basecamp/openapi.json (the operations listed in
# Scripts/OpenAPI/openapi-generator-config.yaml).
# Usage: Scripts/generate-openapi-client.sh [OUT]   (default: Sources/BasecampOpenAPIExample/Generated)
# The generator is built from the package mirror's swift-openapi-generator 1.14.3 in its own
# scratch folder (.build-openapi-generator, gitignored), so the package's own build never
# depends on it and no build plugin runs. Scripts/ci-openapi-drift.sh checks the committed output.
set -euo pipefail
cd "$(dirname "$0")/.."

version=1.14.3
out=${1:-Sources/BasecampOpenAPIExample/Generated}
scratch=.build-openapi-generator
checkout=$scratch/swift-openapi-generator-$version

if [ ! -f "$checkout/Package.swift" ]; then
    rm -rf "$checkout"
    mkdir -p "$scratch"
    git clone --quiet --depth 1 --branch "$version" https://github.com/apple/swift-openapi-generator "$checkout" 2>/dev/null \
        || git clone --quiet --branch "$version" https://github.com/apple/swift-openapi-generator "$checkout"
fi
swift build --package-path "$checkout" --scratch-path "$scratch/build" --product swift-openapi-generator >&2
bin=$(swift build --package-path "$checkout" --scratch-path "$scratch/build" --show-bin-path)

# The generator marks a deprecated property `@available(*, deprecated)` and then sets it in the
# type's own initializer, which warns at every build; the copy it reads has property-level
# `deprecated` flags removed (nothing else changes).
python3 - Spec/Basecamp/openapi.json "$scratch/openapi.json" <<'PY'
import json, sys

def undeprecate(node):
    if isinstance(node, dict):
        for name, child in node.items():
            if name == "properties" and isinstance(child, dict):
                for schema in child.values():
                    if isinstance(schema, dict):
                        schema.pop("deprecated", None)
            undeprecate(child)
    elif isinstance(node, list):
        for child in node:
            undeprecate(child)

document = json.load(open(sys.argv[1]))
undeprecate(document)
json.dump(document, open(sys.argv[2], "w"))
PY

mkdir -p "$out"
"$bin/swift-openapi-generator" generate "$scratch/openapi.json" \
    --config Scripts/OpenAPI/openapi-generator-config.yaml \
    --output-directory "$out" >&2
