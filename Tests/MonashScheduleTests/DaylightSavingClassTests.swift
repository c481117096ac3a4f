import Foundation
import MonashSchedule
import Testing

/// Classes on the nights clocks change, in both hemispheres: a start the clocks skip moves forward
/// with the whole class; a time that happens twice means its first occurrence. The expected
/// instants are worked out by hand from each zone's published rules.
@Suite("Classes across daylight-saving changes, north and south")
struct DaylightSavingClassTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var zone: String
        var start: String
        var end: String
        /// ISO 8601 with the offset in force, as a wall clock in the zone shows it.
        var expectedStart: String
        var expectedEnd: String
        var why: String
        var testDescription: String { "\(zone) \(start)–\(end): \(why)" }
    }

    static let gaps: [Case] = [
        // Melbourne, Sunday 6 October 2024: 02:00 AEST (+10) becomes 03:00 AEDT (+11).
        Case(
            zone: "Australia/Melbourne",
            start: "2024-10-06T02:30:00",
            end: "2024-10-06T03:30:00",
            expectedStart: "2024-10-06T03:30:00+11:00",
            expectedEnd: "2024-10-06T04:30:00+11:00",
            why: "a start in the gap moves forward an hour and the class keeps its hour"
        ),
        Case(
            zone: "Australia/Melbourne",
            start: "2024-10-06T02:30:00",
            end: "2024-10-06T05:00:00",
            expectedStart: "2024-10-06T03:30:00+11:00",
            expectedEnd: "2024-10-06T06:00:00+11:00",
            why: "a longer class moves as a whole"
        ),
        Case(
            zone: "Australia/Melbourne",
            start: "2024-10-06T02:10:00",
            end: "2024-10-06T02:40:00",
            expectedStart: "2024-10-06T03:10:00+11:00",
            expectedEnd: "2024-10-06T03:40:00+11:00",
            why: "a class entirely in the gap keeps its half hour"
        ),
        Case(
            zone: "Australia/Melbourne",
            start: "2024-10-06T01:30:00",
            end: "2024-10-06T02:30:00",
            expectedStart: "2024-10-06T01:30:00+10:00",
            expectedEnd: "2024-10-06T03:30:00+11:00",
            why: "an end in the gap moves forward: one real hour"
        ),
        // Lord Howe Island, Sunday 6 October 2024: 02:00 (+10:30) becomes 02:30 (+11), a half-hour gap.
        Case(
            zone: "Australia/Lord_Howe",
            start: "2024-10-06T02:15:00",
            end: "2024-10-06T03:15:00",
            expectedStart: "2024-10-06T02:45:00+11:00",
            expectedEnd: "2024-10-06T03:45:00+11:00",
            why: "a half-hour gap moves the class half an hour"
        ),
        // New York, Sunday 10 March 2024: 02:00 EST (-5) becomes 03:00 EDT (-4).
        Case(
            zone: "America/New_York",
            start: "2024-03-10T02:30:00",
            end: "2024-03-10T03:30:00",
            expectedStart: "2024-03-10T03:30:00-04:00",
            expectedEnd: "2024-03-10T04:30:00-04:00",
            why: "north: a start in the gap moves forward and the class keeps its hour"
        ),
        // London, Sunday 31 March 2024: 01:00 GMT (+0) becomes 02:00 BST (+1).
        Case(
            zone: "Europe/London",
            start: "2024-03-31T01:15:00",
            end: "2024-03-31T02:45:00",
            expectedStart: "2024-03-31T02:15:00+01:00",
            expectedEnd: "2024-03-31T03:45:00+01:00",
            why: "north: a class of an hour and a half that starts in the gap keeps its length"
        ),
    ]

    static let folds: [Case] = [
        // Melbourne, Sunday 7 April 2024: 03:00 AEDT (+11) becomes 02:00 AEST (+10).
        Case(
            zone: "Australia/Melbourne",
            start: "2024-04-07T02:15:00",
            end: "2024-04-07T02:45:00",
            expectedStart: "2024-04-07T02:15:00+11:00",
            expectedEnd: "2024-04-07T02:45:00+11:00",
            why: "both times happen twice: the first occurrences, half an hour apart"
        ),
        // New York, Sunday 3 November 2024: 02:00 EDT (-4) becomes 01:00 EST (-5).
        Case(
            zone: "America/New_York",
            start: "2024-11-03T01:30:00",
            end: "2024-11-03T02:30:00",
            expectedStart: "2024-11-03T01:30:00-04:00",
            expectedEnd: "2024-11-03T02:30:00-05:00",
            why: "north: the start's first occurrence, so the class lasts its two real hours"
        ),
        // London, Sunday 27 October 2024: 02:00 BST (+1) becomes 01:00 GMT (+0).
        Case(
            zone: "Europe/London",
            start: "2024-10-27T01:00:00",
            end: "2024-10-27T01:50:00",
            expectedStart: "2024-10-27T01:00:00+01:00",
            expectedEnd: "2024-10-27T01:50:00+01:00",
            why: "north: both first occurrences, fifty minutes apart"
        ),
    ]

    func decoded(_ test: Case) throws -> ClassSession {
        let zone = try #require(TimeZone(identifier: test.zone))
        let week = try Fixtures.timetable(classes: [(test.start, test.end)], timeZone: zone)
        return try #require(week.classes.first)
    }

    @Test("A class the clocks skip into moves forward and keeps its length", arguments: gaps)
    func gap(_ test: Case) throws {
        let session = try decoded(test)
        #expect(session.start == (try Fixtures.instant(test.expectedStart)))
        #expect(session.end == (try Fixtures.instant(test.expectedEnd)))
        #expect(session.duration > 0)
    }

    @Test("A class in the repeated hour takes the first occurrence", arguments: folds)
    func fold(_ test: Case) throws {
        let session = try decoded(test)
        #expect(session.start == (try Fixtures.instant(test.expectedStart)))
        #expect(session.end == (try Fixtures.instant(test.expectedEnd)))
    }

    @Test("The gap class's calendar event has a DTEND an hour after its DTSTART, in UTC and zoned")
    func gapEvent() throws {
        let week = try Fixtures.timetable(classes: [("2024-10-06T02:30:00", "2024-10-06T03:30:00")])
        let stamp = Date(timeIntervalSince1970: 1_712_000_000)
        let utc = week.iCalendar(ICalendarOptions(times: .utc, stamp: stamp))
        #expect(utc.contains("\r\nDTSTART:20241005T163000Z\r\nDTEND:20241005T173000Z\r\n"))
        let zoned = week.iCalendar(ICalendarOptions(stamp: stamp))
        #expect(
            zoned.contains(
                "\r\nDTSTART;TZID=Australia/Melbourne:20241006T033000\r\nDTEND;TZID=Australia/Melbourne:20241006T043000\r\n"
            )
        )
    }

    @Test("A class at the second occurrence of a repeated wall time is written in UTC, as no TZID form can name it")
    func secondOccurrenceZoned() throws {
        // 02:30 AEST on 7 April 2024 is the second 02:30 of that night in Melbourne.
        let week = try Fixtures.timetable(classes: [("2024-04-07T02:30:00+10:00", "2024-04-07T03:30:00+10:00")])
        let zoned = week.iCalendar(ICalendarOptions(stamp: Date(timeIntervalSince1970: 1_712_000_000)))
        #expect(
            zoned.contains("\r\nDTSTART:20240406T163000Z\r\nDTEND;TZID=Australia/Melbourne:20240407T033000\r\n"),
            "\(zoned)"
        )
        // The first occurrence keeps its zone.
        let first = try Fixtures.timetable(classes: [("2024-04-07T02:30:00+11:00", "2024-04-07T03:30:00+10:00")])
            .iCalendar(ICalendarOptions(stamp: Date(timeIntervalSince1970: 1_712_000_000)))
        #expect(first.contains("\r\nDTSTART;TZID=Australia/Melbourne:20240407T023000\r\n"))
    }

    @Test("An explicit offset is kept as sent, even at a wall time the zone skips")
    func explicitOffset() throws {
        let week = try Fixtures.timetable(classes: [("2024-10-06T02:30:00+10:00", "2024-10-06T03:30:00+10:00")])
        let session = try #require(week.classes.first)
        #expect(session.start == (try Fixtures.instant("2024-10-05T16:30:00Z")))
        #expect(session.duration == 3600)
    }
}
