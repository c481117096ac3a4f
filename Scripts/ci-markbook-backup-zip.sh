#!/usr/bin/env bash
# Checks the Markbook sandbox's backup zip with tools that did not write it: the BackupTests suite
# downloads a backup from the loopback sandbox into a directory, then Python's zipfile (every
# entry's CRC-32) and `unzip -t` (when installed) must both read it.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
swift build --build-tests >&2
MARKBOOK_BACKUP_ZIP_OUT="$out" swift test --skip-build --filter BackupTests >&2
zip="$out/sandbox-backup.zip"
[ -s "$zip" ] || { echo "error: the test wrote no backup zip" >&2; exit 1; }
python3 - "$zip" <<'PY'
import json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as archive:
    bad = archive.testzip()
    if bad is not None:
        sys.exit(f"error: {bad} fails its CRC-32 check")
    names = archive.namelist()
    manifest = json.loads(archive.read("manifest.json"))
    for entry in manifest["markbooks"]:
        for key in ("json", "csv"):
            if entry[key] not in names:
                sys.exit(f"error: the manifest lists {entry[key]}, which is not in the zip")
    if any(info.compress_type != zipfile.ZIP_STORED for info in archive.infolist()):
        sys.exit("error: an entry is not stored")
    print(f"zipfile: {len(names)} entries, every CRC-32 correct: {', '.join(names)}")
PY
if command -v unzip >/dev/null; then
    unzip -t "$zip"
fi
