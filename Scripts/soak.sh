#!/usr/bin/env bash
# Full chaos soak: 10,000 mixed operations, 16 at a time, through shared clients on the
# AsyncHTTPClient transport, while the sandbox faults 20% of requests with a fixed seed.
# `swift test` runs the same test with 400 operations.
#
#   Scripts/soak.sh           # 10,000 operations
#   Scripts/soak.sh 50000     # more
#
# The figures are printed and written to .build-soak-report.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
operations=${1:-10000}
report="$(pwd)/.build-soak-report.txt"
swift build --build-tests
SOAK_OPERATIONS="$operations" SOAK_REPORT="$report" \
    swift test --skip-build --filter 'SoakTests' 2>&1 | grep -E '^\[soak\]|passed|failed|error|issue' || true
test -s "$report" || { echo "error: the soak wrote no report" >&2; exit 1; }
cat "$report"
grep -q 'problems: 0$' "$report" || { echo "error: the soak found problems (above)" >&2; exit 1; }
