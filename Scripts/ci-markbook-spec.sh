#!/usr/bin/env bash
# Fails when Sources/MarkbookSandbox/Generated is stale against Spec/Markbook, or when a Spec file is
# not valid JSON. (That the SDK, the sandbox and the examples agree with the contract is checked by
# MarkbookTests' SpecConformanceTests, which CI runs with every other test.)
set -euo pipefail
cd "$(dirname "$0")/.."
committed=Sources/MarkbookSandbox/Generated/MarkbookSpecPayloads.swift
fresh=$(mktemp)
trap 'rm -f "$fresh"' EXIT
for file in Spec/Markbook/*.json Spec/Markbook/examples/*.json; do
    if command -v python3 >/dev/null; then
        python3 -m json.tool "$file" >/dev/null || { echo "error: $file is not valid JSON" >&2; exit 1; }
    fi
done
Scripts/generate-markbook-spec.sh "$fresh"
if ! diff -u "$committed" "$fresh"; then
    echo "error: $committed is stale; run Scripts/generate-markbook-spec.sh" >&2
    exit 1
fi
echo "Markbook Spec payloads are up to date."
