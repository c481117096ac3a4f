#!/usr/bin/env python3
"""Prints the slowest test cases of a run by their own time, from Swift Testing's event stream.

Usage:
    swift test --event-stream-output-path /tmp/events.jsonl --event-stream-version 0
    Scripts/test-times.py /tmp/events.jsonl [LIMIT_SECONDS]

Swift Testing's "passed after N seconds" counts from when a test is scheduled, so in a full run
it includes the time the test waited for one of the 16 places in flight. A test case's own time
runs from its `testCaseStarted` event, posted once it has a place, to its `testCaseEnded`. Exits 1
when a case took longer than the limit (30 s unless given).
"""
import json
import sys


def main() -> int:
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    limit = float(sys.argv[2]) if len(sys.argv) == 3 else 30.0
    started, own = {}, {}
    with open(sys.argv[1], encoding="utf-8") as stream:
        for line in stream:
            record = json.loads(line)
            if record.get("kind") != "event":
                continue
            event = record["payload"]
            case = (event.get("testID"), (event.get("_testCase") or {}).get("displayName"))
            at = event["instant"]["absolute"]
            if event["kind"] == "testCaseStarted":
                started[case] = at
            elif event["kind"] == "testCaseEnded" and case in started:
                own[case] = max(own.get(case, 0.0), at - started.pop(case))
    slowest = sorted(own.items(), key=lambda item: -item[1])
    if not slowest:
        print("no test case ended in this event stream", file=sys.stderr)
        return 2
    for (test, argument), seconds in slowest[:15]:
        print(f"{seconds:7.2f} s  {test}" + (f"  ({argument[:60]})" if argument else ""))
    over = [case for case, seconds in slowest if seconds > limit]
    print(f"{len(own)} test cases; the slowest took {slowest[0][1]:.2f} s; {len(over)} over {limit:g} s")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
