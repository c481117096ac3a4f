#!/usr/bin/env bash
# Fails when a README code block marked `<!-- example: PATH -->` differs from the file it shows,
# so the README's examples are always the compiled code.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
while IFS= read -r path; do
    shown=$(awk -v path="$path" '
        $0 == "<!-- example: " path " -->" { inside = 1; next }
        inside && /^```swift$/ { code = 1; next }
        inside && code && /^```$/ { exit }
        inside && code { print }
    ' README.md)
    if ! diff -u "$path" <(printf '%s\n' "$shown") >/dev/null; then
        echo "README.md's example differs from $path:" >&2
        diff -u "$path" <(printf '%s\n' "$shown") >&2 || true
        status=1
    fi
done < <(sed -n 's/^<!-- example: \(.*\) -->$/\1/p' README.md)
exit $status
