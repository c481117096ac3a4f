#!/usr/bin/env bash
# Full chaos soak, 10,000 operations each, 16 at a time, through shared clients on the
# AsyncHTTPClient transport, while the sandbox faults 20% of requests with a fixed seed:
#   - the Markbook and Basecamp SDK clients against their sandboxes, mounted in one sandbox;
#   - HTTPCore's Client against a generic API with keyed (Idempotency-Key) and unkeyed creates.
# `swift test` runs the same tests with 400 operations each.
#
#   Scripts/soak.sh           # 10,000 operations per soak
#   Scripts/soak.sh 50000     # more
#
# The figures are printed and written to .build-soak-report.txt; every soak must report
# `problems: 0`.
set -euo pipefail
cd "$(dirname "$0")/.."
operations=${1:-10000}
soaks=2
report="$(pwd)/.build-soak-report.txt"
rm -f "$report"
swift build --build-tests
SOAK_OPERATIONS="$operations" SOAK_REPORT="$report" \
    swift test --skip-build --filter 'SoakTests' 2>&1 | grep -E '^\[soak\]|passed|failed|error|issue' || true
test -s "$report" || { echo "error: the soak wrote no report" >&2; exit 1; }
cat "$report"
found=$(grep -c 'problems: ' "$report" || true)
[ "$found" -eq "$soaks" ] || { echo "error: expected $soaks soak summaries, found $found" >&2; exit 1; }
if grep 'problems: ' "$report" | grep -qv 'problems: 0$'; then
    echo "error: the soak found problems (above)" >&2
    exit 1
fi
