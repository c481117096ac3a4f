#!/usr/bin/env python3
"""Checks the Monash iCalendar export with a real parser (Python's icalendar).

Usage: validate-ics.py DIRECTORY

DIRECTORY holds the .ics files written by the ICalendarFileTests suite and expected.json, which
lists, per file, its campus zone, the SEQUENCE every event carries, the refresh interval
(REFRESH-INTERVAL and X-PUBLISHED-TTL, or none) and the events it must contain (UID, UTC start and
end, summary, location, description), worked out by hand from the zones' daylight-saving rules
(Melbourne's and New York's). For every file this checks the raw text (CRLF line ends, lines of at
most 75 octets, UTF-8 never split), that the parser reads it, and that each event's fields and
instants are the expected ones. A zoned file's times are converted twice: with the VTIMEZONE the
file carries (built into a time zone from its observances alone) and with the system's zone data
for its TZID; both must agree with the expectations.
"""

import datetime
import json
import pathlib
import sys
import zoneinfo

import icalendar

UTC = datetime.timezone.utc
problems = []


def problem(file, message):
    problems.append(f"{file}: {message}")


def instant(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def check_raw(name, raw):
    if not raw.endswith(b"\r\n"):
        problem(name, "the file does not end with CRLF")
    for number, line in enumerate(raw.split(b"\r\n")[:-1], start=1):
        if b"\n" in line or b"\r" in line:
            problem(name, f"line {number} has a bare line break")
        if len(line) > 75:
            problem(name, f"line {number} is {len(line)} octets long")
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            problem(name, f"line {number} splits a UTF-8 sequence")


def utc_of(value, zone=None):
    """The UTC instant of a parsed DTSTART/DTEND; a naive wall time is placed in `zone`."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=zone)
    return value.astimezone(UTC)


def check_refresh(name, calendar, wanted):
    """REFRESH-INTERVAL (RFC 7986, a DURATION value) and X-PUBLISHED-TTL: both `wanted`, or neither."""
    for key in ("REFRESH-INTERVAL", "X-PUBLISHED-TTL"):
        got = calendar.get(key)
        if wanted is None:
            if got is not None:
                problem(name, f"{key} present but not expected")
            continue
        if got is None:
            problem(name, f"{key} missing")
            continue
        if key == "REFRESH-INTERVAL" and got.params.get("VALUE") != "DURATION":
            problem(name, "REFRESH-INTERVAL lacks VALUE=DURATION")
        text = got.to_ical().decode() if hasattr(got, "to_ical") else str(got)
        if text != wanted or icalendar.vDuration.from_ical(text) != icalendar.vDuration.from_ical(wanted):
            problem(name, f"{key} is {text}, expected {wanted}")


def check_file(directory, name, expected_file):
    raw = (directory / name).read_bytes()
    check_raw(name, raw)
    calendar = icalendar.Calendar.from_ical(raw)
    if str(calendar.get("VERSION")) != "2.0" or not calendar.get("PRODID"):
        problem(name, "VERSION or PRODID missing")
    check_refresh(name, calendar, expected_file.get("refreshInterval"))
    expected = expected_file["events"]
    tzid = expected_file["zone"]
    zones = calendar.walk("VTIMEZONE")
    zoned = not name.endswith("-utc.ics")
    file_zone = system_zone = None
    if zoned:
        if len(zones) != 1 or str(zones[0]["TZID"]) != tzid:
            problem(name, f"expected one VTIMEZONE for {tzid}")
            return
        file_zone = zones[0].to_tz(lookup_tzid=False)
        system_zone = zoneinfo.ZoneInfo(tzid)
    elif zones:
        problem(name, "a UTC file has a VTIMEZONE")

    events = calendar.walk("VEVENT")
    if len(events) != len(expected):
        problem(name, f"{len(events)} events, expected {len(expected)}")
        return
    uids = [str(event["UID"]) for event in events]
    if len(set(uids)) != len(uids):
        problem(name, "UIDs repeat")
    for event, want in zip(events, expected):
        label = f"{name} {want['uid']}"
        if str(event["UID"]) != want["uid"]:
            problem(label, f"UID is {event['UID']}")
        stamp = event.decoded("DTSTAMP")
        if stamp.tzinfo is None or stamp.utcoffset() != datetime.timedelta(0):
            problem(label, "DTSTAMP is not UTC")
        sequence = event.get("SEQUENCE")
        if sequence is None or int(sequence) != expected_file["sequence"]:
            problem(label, f"SEQUENCE is {sequence}, expected {expected_file['sequence']}")
        elif not 0 <= int(sequence) <= 2**31 - 1:
            problem(label, "SEQUENCE does not fit RFC 5545's INTEGER")
        for key in ("DTSTART", "DTEND"):
            wanted = want.get("start" if key == "DTSTART" else "end")
            if wanted is None:
                if key in event:
                    problem(label, f"{key} present but not expected")
                continue
            if key not in event:
                problem(label, f"{key} missing")
                continue
            prop = event[key]
            if zoned:
                if prop.params.get("TZID") != tzid:
                    problem(label, f"{key} has TZID {prop.params.get('TZID')}")
                wall = prop.dt.replace(tzinfo=None)
                for zone_name, zone in (("the file's VTIMEZONE", file_zone), ("the system zone", system_zone)):
                    got = utc_of(wall, zone)
                    if got != instant(wanted):
                        problem(label, f"{key} with {zone_name} is {got.isoformat()}, expected {wanted}")
            else:
                if prop.dt.tzinfo is None or prop.dt.utcoffset() != datetime.timedelta(0):
                    problem(label, f"{key} is not in UTC")
                elif utc_of(prop.dt) != instant(wanted):
                    problem(label, f"{key} is {prop.dt.isoformat()}, expected {wanted}")
        for key in ("SUMMARY", "LOCATION", "DESCRIPTION"):
            wanted = want.get(key.lower())
            got = str(event[key]) if key in event else None
            if got != wanted:
                problem(label, f"{key} is {got!r}, expected {wanted!r}")


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    directory = pathlib.Path(sys.argv[1])
    expected = json.loads((directory / "expected.json").read_text(encoding="utf-8"))
    if not expected:
        print("validate-ics: expected.json lists no files", file=sys.stderr)
        return 1
    for name, expected_file in sorted(expected.items()):
        check_file(directory, name, expected_file)
    for line in problems:
        print(f"validate-ics: {line}", file=sys.stderr)
    checked = sum(len(expected_file["events"]) for expected_file in expected.values())
    print(f"validate-ics: {len(expected)} files, {checked} events, {len(problems)} problems "
          f"(icalendar {icalendar.__version__})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
