import Foundation
import HTTPCoreTesting
import MonashSchedule
import Testing

/// Melbourne's daylight time ends on the first Sunday of April (03:00 AEDT becomes 02:00 AEST) and
/// starts on the first Sunday of October (02:00 AEST becomes 03:00 AEDT).
@Suite("Campus-local times across daylight-saving changes")
struct TimeZoneTests {
    @Test(
        "The same wall-clock time maps to different UTC instants either side of a change",
        arguments: [
            // April 2024: the change is on Sunday the 7th.
            ("2024-04-05T10:00:00", "2024-04-04T23:00:00Z"),  // Friday, AEDT (+11)
            ("2024-04-08T10:00:00", "2024-04-08T00:00:00Z"),  // Monday, AEST (+10)
            ("2024-04-07T01:59:59", "2024-04-06T14:59:59Z"),  // just before the repeated hour
            ("2024-04-07T03:00:00", "2024-04-06T17:00:00Z"),  // after it
            // October 2024: the change is on Sunday the 6th.
            ("2024-10-04T10:00:00", "2024-10-04T00:00:00Z"),  // Friday, AEST (+10)
            ("2024-10-07T10:00:00", "2024-10-06T23:00:00Z"),  // Monday, AEDT (+11)
            ("2024-10-06T01:59:59", "2024-10-05T15:59:59Z"),  // just before the gap
            ("2024-10-06T03:00:00", "2024-10-05T16:00:00Z"),  // the first minute after it
        ]
    )
    func aroundTheChange(local: String, utc: String) throws {
        let week = try Fixtures.timetable(classes: [(local, local)])
        #expect(week.classes.first?.start == (try Fixtures.instant(utc)))
    }

    @Test("A repeated wall-clock time (clocks go back) means its first occurrence")
    func repeatedHour() throws {
        let week = try Fixtures.timetable(buses: ["2024-04-07T02:30:00"])
        // 02:30 AEDT (+11), not 02:30 AEST an hour later.
        #expect(week.stops.first?.predictedArrival == (try Fixtures.instant("2024-04-06T15:30:00Z")))
    }

    @Test("A skipped wall-clock time (clocks go forward) moves forward by the gap")
    func skippedHour() throws {
        let week = try Fixtures.timetable(buses: ["2024-10-06T02:30:00"])
        // Reads as 03:30 AEDT, which is what a clock on the wall showed an hour after 01:30.
        #expect(week.stops.first?.predictedArrival == (try Fixtures.instant("2024-10-06T03:30:00+11:00")))
    }

    @Test("A class spanning the repeated hour lasts its real length")
    func classAcrossTheChange() throws {
        // 01:30 to 03:30 on the night clocks go back is three real hours.
        let week = try Fixtures.timetable(classes: [("2024-04-07T01:30:00", "2024-04-07T03:30:00")])
        let session = try #require(week.classes.first)
        #expect(session.start == (try Fixtures.instant("2024-04-07T01:30:00+11:00")))
        #expect(session.end == (try Fixtures.instant("2024-04-07T03:30:00+10:00")))
        #expect(session.duration == TimeInterval(3 * 3600))
    }

    @Test("A 25-hour day keeps its first and last classes, and only them")
    func longDay() throws {
        let week = try Fixtures.timetable(classes: [
            ("2024-04-06T23:30:00", "2024-04-06T23:45:00"),
            ("2024-04-07T00:30:00", "2024-04-07T00:45:00"),
            ("2024-04-07T23:30:00", "2024-04-07T23:45:00"),
            ("2024-04-08T00:15:00", "2024-04-08T00:45:00"),
        ])
        let sunday = try Fixtures.instant("2024-04-07T12:00:00+10:00")
        let kinds = week.classes(onSameDayAs: sunday).map(\.kind)
        #expect(kinds == ["Lecture 02", "Lecture 03"])
    }

    @Test("'Tomorrow' across the change is the next calendar day, not 24 hours later")
    func tomorrowAcrossTheChange() throws {
        let week = try Fixtures.timetable(classes: [
            ("2024-10-06T23:30:00", "2024-10-06T23:50:00"),
            ("2024-10-07T00:10:00", "2024-10-07T01:00:00"),
        ])
        // Saturday 5 October 23:40 AEST; 24 hours later is already Monday 00:40 AEDT.
        let clock = TestClock(start: try Fixtures.instant("2024-10-05T23:40:00+10:00"))
        let assistant = TimetableAssistant(timetable: week, clock: clock)
        #expect(assistant.classes(daysFromToday: 1).map(\.kind) == ["Lecture 01"])
        #expect(assistant.classes(daysFromToday: 2).map(\.kind) == ["Lecture 02"])
    }
}
