#!/usr/bin/env bash
# Regenerates the code generated from Spec/Basecamp (openapi.json and examples/):
#   Sources/Basecamp/Generated/             models, services, operation catalog, account accessors
#   Tests/BasecampTests/Generated/          the table the all-operations test calls through
#   Sources/BasecampCLI/Generated/          the `basecamp` command's service and operation subcommands
#   Sources/BasecampSandbox/Generated/      the example payloads the sandbox answers with
#   Tests/BasecampSandboxTests/Generated/   the test that decodes every example with its SDK model
# Usage: Scripts/generate.sh [SOURCES_OUT TESTS_OUT [CLI_OUT SANDBOX_OUT SANDBOX_TESTS_OUT]]
#   (defaults: the directories above; with only the first two, the other three are not written)
# The output is deterministic and formatted with `swift format`; CI regenerates it into a
# temporary directory and fails on any difference (Scripts/ci-basecamp-drift.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -eq 0 ]; then
    set -- Sources/Basecamp/Generated Tests/BasecampTests/Generated \
        Sources/BasecampCLI/Generated Sources/BasecampSandbox/Generated Tests/BasecampSandboxTests/Generated
fi
sources_out=$1
tests_out=$2
outputs=("$sources_out" "$tests_out")
extra=()
if [ $# -ge 5 ]; then
    extra=(--cli "$3" --sandbox "$4" --sandbox-tests "$5")
    outputs+=("$3" "$4" "$5")
fi
mkdir -p "${outputs[@]}"

swift build --product BasecampGenerator >&2
bin=$(swift build --show-bin-path)
"$bin/BasecampGenerator" Spec/Basecamp/openapi.json "$sources_out" "$tests_out" "${extra[@]}"
swift format --in-place --recursive --configuration .swift-format "${outputs[@]}"
