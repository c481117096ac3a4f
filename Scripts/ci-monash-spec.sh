#!/usr/bin/env bash
# Fails when Sources/MonashSandbox/Generated is stale against Spec/MonashSchedule, or when a Spec
# example is not valid JSON.
set -euo pipefail
cd "$(dirname "$0")/.."
committed=Sources/MonashSandbox/Generated/MonashSpecPayloads.swift
fresh=$(mktemp)
trap 'rm -f "$fresh"' EXIT
for example in Spec/MonashSchedule/*.json; do
    if command -v python3 >/dev/null; then
        python3 -m json.tool "$example" >/dev/null || { echo "error: $example is not valid JSON" >&2; exit 1; }
    fi
done
Scripts/generate-monash-payloads.sh "$fresh"
if ! diff -u "$committed" "$fresh"; then
    echo "error: $committed is stale; run Scripts/generate-monash-payloads.sh" >&2
    exit 1
fi
echo "Monash Spec payloads are up to date."
