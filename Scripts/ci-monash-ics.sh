#!/usr/bin/env bash
# Validates the Monash iCalendar export with a real parser: the ICalendarFileTests suite writes the
# fixture weeks (Melbourne's April and October daylight-saving changes included) as zoned and UTC
# files, and Python's icalendar package reads each one and checks its events' times and fields
# (Scripts/validate-ics.py). Then the built `monash timetable --ics` writes the sandbox's weeks,
# zoned and UTC, and each file is read the same way and checked against `monash --json timetable`
# (Scripts/validate-cli-ics.py). Last, `monash calendar serve` is started on a free port: its feed
# is fetched, a conditional GET with its ETag must be answered 304, the feed is checked the same
# way (plus REFRESH-INTERVAL), and SIGINT must stop the server with exit 0. Fails, never skips,
# when icalendar cannot be installed.
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

# The subscription feed, as a calendar app reads it.
"$monash" --sandbox calendar serve --port 0 > "$out/serve.out" 2> "$out/serve.err" &
serve_pid=$!
for _ in $(seq 1 600); do
    [ -s "$out/serve.out" ] && break
    kill -0 "$serve_pid" 2>/dev/null || break
    sleep 0.1
done
url=$(head -n 1 "$out/serve.out")
if [ -z "$url" ]; then
    echo "error: calendar serve printed no URL" >&2
    cat "$out/serve.err" >&2
    kill -TERM "$serve_pid" 2>/dev/null || true
    exit 1
fi
python3 - "$url" "$out/feed.ics" <<'PY'
import sys
import urllib.error
import urllib.request

url, target = sys.argv[1], sys.argv[2]
with urllib.request.urlopen(url, timeout=30) as response:
    assert response.status == 200, response.status
    assert response.headers["Content-Type"] == "text/calendar; charset=utf-8", response.headers["Content-Type"]
    etag = response.headers["ETag"]
    body = response.read()
with open(target, "wb") as file:
    file.write(body)
try:
    urllib.request.urlopen(urllib.request.Request(url, headers={"If-None-Match": etag}), timeout=30)
    sys.exit("ci-monash-ics: a conditional GET with the feed's ETag was not answered 304")
except urllib.error.HTTPError as error:
    assert error.code == 304, error.code
print(f"ci-monash-ics: {url}: 200 with ETag {etag}, then 304")
PY
MONASH_SANDBOX_WEEK=sample "$monash" --sandbox --json timetable > "$out/cli-feed.json"
kill -INT "$serve_pid"
wait "$serve_pid"
python3 Scripts/validate-cli-ics.py --refresh PT15M "$out/feed.ics" "$out/cli-feed.json"
