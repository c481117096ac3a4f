#!/usr/bin/env bash
# CI: Spec/Basecamp/openapi.json validates as OpenAPI 3.1 (OpenAPIKit), and the committed generated
# code (SDK, its test table, the `basecamp` command's subcommands, the sandbox's examples and their
# decoding test) is exactly what Scripts/generate.sh makes from Spec/Basecamp. Any difference fails.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product BasecampGenerator >&2
bin=$(swift build --show-bin-path)
"$bin/BasecampGenerator" --validate Spec/Basecamp/openapi.json

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
Scripts/generate.sh "$tmp/sources" "$tmp/tests" "$tmp/cli" "$tmp/sandbox" "$tmp/sandbox-tests" >/dev/null

status=0
diff -ru Sources/Basecamp/Generated "$tmp/sources" || status=1
diff -ru Tests/BasecampTests/Generated "$tmp/tests" || status=1
diff -ru Sources/BasecampCLI/Generated "$tmp/cli" || status=1
diff -ru Sources/BasecampSandbox/Generated "$tmp/sandbox" || status=1
diff -ru Tests/BasecampSandboxTests/Generated "$tmp/sandbox-tests" || status=1
if [ "$status" -ne 0 ]; then
    echo "error: the generated Basecamp code differs from Spec/Basecamp; run Scripts/generate.sh and commit the result" >&2
    exit 1
fi
echo "Basecamp generated code matches Spec/Basecamp"
