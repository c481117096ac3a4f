#!/usr/bin/env bash
# Names the tests a `swift test` log shows started and never ended (passed, failed or skipped):
# what a hung run was waiting on. Usage: Scripts/unfinished-tests.sh LOG
set -euo pipefail
log=${1:?usage: Scripts/unfinished-tests.sh LOG}
started=$(sed -n 's/^◇ Test "\([^"]*\)" started\.$/\1/p' "$log" | sort -u)
ended=$(sed -n 's/^\(✔\|✘\|➜\) Test "\([^"]*\)"\( with [0-9]* test cases\)\{0,1\} \(passed\|failed\|skipped\).*/\2/p' "$log" | sort -u)
comm -23 <(printf '%s\n' "$started") <(printf '%s\n' "$ended")
