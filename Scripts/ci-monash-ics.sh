#!/usr/bin/env bash
# Validates the Monash iCalendar export with a real parser: the ICalendarFileTests suite writes the
# fixture weeks (Melbourne's April and October daylight-saving changes included) as zoned and UTC
# files, and Python's icalendar package reads each one and checks its events' times and fields
# (Scripts/validate-ics.py). Then the built `monash timetable --ics` writes the sandbox's weeks,
# zoned and UTC, and each file is read the same way and checked against `monash --json timetable`
# (Scripts/validate-cli-ics.py). Fails, never skips, when icalendar cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -c "import icalendar" 2>/dev/null; then
    echo "ci-monash-ics: installing Python's icalendar package" >&2
    if ! python3 -m pip install --quiet --root-user-action=ignore icalendar; then
        echo "error: Python's icalendar package is missing and could not be installed" >&2
        exit 1
    fi
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
swift build --build-tests >&2
MONASH_ICS_OUT="$out" swift test --skip-build --filter ICalendarFileTests >&2
python3 Scripts/validate-ics.py "$out"
monash="$(swift build --show-bin-path)/monash"
for week in sample large; do
    MONASH_SANDBOX_WEEK=$week "$monash" --sandbox --json timetable > "$out/cli-$week.json"
    MONASH_SANDBOX_WEEK=$week "$monash" --sandbox timetable --ics --output "$out/cli-$week.ics"
    MONASH_SANDBOX_WEEK=$week "$monash" --sandbox timetable --ics --utc > "$out/cli-$week-utc.ics"
    python3 Scripts/validate-cli-ics.py "$out/cli-$week.ics" "$out/cli-$week.json"
    python3 Scripts/validate-cli-ics.py "$out/cli-$week-utc.ics" "$out/cli-$week.json"
done
