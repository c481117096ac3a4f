#!/usr/bin/env bash
# CI: fails when the embedded Spec payloads of Markbook or Monash are stale against Spec/, or when a
# Spec file is not valid JSON (the generator checks that, and fails when python3 is missing).
# That the SDKs, the sandboxes and the examples agree with the contracts is checked by the
# MarkbookTests and MonashScheduleTests suites, which CI runs with every other test.
set -euo pipefail
cd "$(dirname "$0")/.."
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
Scripts/generate-spec-payloads.sh "$fresh"
status=0
diff -u Sources/MarkbookSandbox/Generated/MarkbookSpecPayloads.swift "$fresh/MarkbookSpecPayloads.swift" || status=1
diff -u Sources/MonashSandbox/Generated/MonashSpecPayloads.swift "$fresh/MonashSpecPayloads.swift" || status=1
if [ "$status" -ne 0 ]; then
    echo "error: the embedded Spec payloads are stale; run Scripts/generate-spec-payloads.sh and commit the result" >&2
    exit 1
fi
echo "Markbook and Monash Spec payloads are up to date."
