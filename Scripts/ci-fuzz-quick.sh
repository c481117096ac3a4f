#!/usr/bin/env bash
# CI: every fuzz target for a few seconds from the committed seed corpus (Scripts/fuzz.sh runs
# them for real). Catches a harness that no longer builds and shallow crashes in new code.
set -euo pipefail
cd "$(dirname "$0")/.."
exec Scripts/fuzz.sh "${FUZZ_QUICK_SECONDS:-5}"
