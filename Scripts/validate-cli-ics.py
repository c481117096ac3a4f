#!/usr/bin/env python3
"""Checks a calendar written by `monash timetable --ics` against the same week as JSON.

Usage: validate-cli-ics.py FILE.ics TIMETABLE.json

TIMETABLE.json is `monash --json timetable` for the same week. The file is read with Python's
icalendar; it must hold one event per class with the class's start and end instants (converted
with the file's own VTIMEZONE and with the system's zone data when zoned, or UTC times with no
VTIMEZONE when the name ends in -utc.ics), the course and class in SUMMARY, room and campus in
LOCATION, the lecturer in DESCRIPTION, distinct UIDs, a UTC DTSTAMP, and one SEQUENCE (a 32-bit
INTEGER) on every event. A DTEND is required whenever the class ends after it starts. With
--refresh DURATION the calendar must carry REFRESH-INTERVAL and X-PUBLISHED-TTL of that value (a
subscription feed, `monash calendar serve`). The raw checks (CRLF, 75-octet lines) are
validate-ics.py's.
"""

import datetime
import importlib.util
import json
import pathlib
import sys
import zoneinfo

import icalendar

spec = importlib.util.spec_from_file_location("validate_ics", pathlib.Path(__file__).with_name("validate-ics.py"))
validate_ics = importlib.util.module_from_spec(spec)
spec.loader.exec_module(validate_ics)
UTC = datetime.timezone.utc


def main():
    arguments = sys.argv[1:]
    refresh = None
    if len(arguments) == 4 and arguments[0] == "--refresh":
        refresh = arguments[1]
        arguments = arguments[2:]
    if len(arguments) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    path = pathlib.Path(arguments[0])
    name = path.name
    week = json.loads(pathlib.Path(arguments[1]).read_text(encoding="utf-8"))
    raw = path.read_bytes()
    validate_ics.check_raw(name, raw)
    problem = validate_ics.problem
    calendar = icalendar.Calendar.from_ical(raw)
    validate_ics.check_refresh(name, calendar, refresh)
    zones = calendar.walk("VTIMEZONE")
    zoned = not name.endswith("-utc.ics")
    converters = []
    if zoned:
        if len(zones) != 1:
            problem(name, f"{len(zones)} VTIMEZONE components, expected 1")
        else:
            converters = [zones[0].to_tz(lookup_tzid=False), zoneinfo.ZoneInfo(str(zones[0]["TZID"]))]
    elif zones:
        problem(name, "a UTC file has a VTIMEZONE")
    events = calendar.walk("VEVENT")
    classes = sorted(week["classes"], key=lambda c: (c["start"], c["course"], c["kind"]))
    if len(events) != len(classes):
        problem(name, f"{len(events)} events for {len(classes)} classes")
    uids = [str(event["UID"]) for event in events]
    if len(set(uids)) != len(uids):
        problem(name, "UIDs repeat")
    sequences = {str(event.get("SEQUENCE")) for event in events}
    if events and (len(sequences) != 1 or not all(s.isdigit() and int(s) <= 2**31 - 1 for s in sequences)):
        problem(name, f"SEQUENCE values {sorted(sequences)}, expected one 32-bit integer")
    for event in events:
        stamp = event.decoded("DTSTAMP") if "DTSTAMP" in event else None
        if stamp is None or stamp.tzinfo is None or stamp.utcoffset() != datetime.timedelta(0):
            problem(name, f"{event['UID']}: DTSTAMP missing or not UTC")
    remaining = list(events)
    for session in classes:
        start = datetime.datetime.fromisoformat(session["start"]).astimezone(UTC)
        end = datetime.datetime.fromisoformat(session["end"]).astimezone(UTC)
        label = f"{name} {session['course']} {session['kind']} {session['start']}"

        def instants(event, key):
            prop = event[key]
            if not zoned:
                return [prop.dt.astimezone(UTC)] if prop.dt.tzinfo is not None else []
            wall = prop.dt.replace(tzinfo=None)
            return [wall.replace(tzinfo=zone).astimezone(UTC) for zone in converters]

        match = next(
            (e for e in remaining
             if session["course"] in str(e.get("SUMMARY", "")) and session["kind"] in str(e.get("SUMMARY", ""))
             and instants(e, "DTSTART") and all(t == start for t in instants(e, "DTSTART"))),
            None,
        )
        if match is None:
            problem(label, "no event with this course, class and start")
            continue
        remaining.remove(match)
        if end > start and "DTEND" not in match:
            problem(label, "DTEND missing for a class that ends after it starts")
        elif "DTEND" in match and not all(t == end for t in instants(match, "DTEND")):
            problem(label, f"DTEND is {match['DTEND'].dt}, expected {session['end']}")
        location = str(match.get("LOCATION", ""))
        if session["room"] not in location or session["campus"] not in location:
            problem(label, f"LOCATION {location!r} lacks the room or campus")
        if session["lecturer"] not in str(match.get("DESCRIPTION", "")):
            problem(label, "DESCRIPTION lacks the lecturer")
    for line in validate_ics.problems:
        print(f"validate-cli-ics: {line}", file=sys.stderr)
    print(f"validate-cli-ics: {name}: {len(events)} events, {len(validate_ics.problems)} problems")
    return 1 if validate_ics.problems else 0


if __name__ == "__main__":
    sys.exit(main())
