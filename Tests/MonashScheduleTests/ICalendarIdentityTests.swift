import Foundation
import MonashSchedule
import Testing

/// What lets a calendar app update an event instead of adding a copy: a `UID` that names the class
/// rather than its time, a `SEQUENCE` that grows, and a `DTSTAMP`.
@Suite("iCalendar event identity: UID, SEQUENCE, DTSTAMP")
struct ICalendarIdentityTests {
    static let stamp = ICalendarFixtures.stamp

    func values(_ name: String, _ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
            .filter { $0.hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)) }
    }

    func week(_ classes: [(String, String)]) throws -> Timetable {
        try Fixtures.timetable(classes: classes)
    }

    @Test("A class moved to another day of its week keeps its UID; the new file's SEQUENCE is higher")
    func rescheduled() throws {
        let before = try week([("2024-07-15T09:00:00", "2024-07-15T10:00:00")])
            .iCalendar(ICalendarOptions(times: .utc, stamp: Self.stamp))
        let after = try week([("2024-07-18T14:00:00", "2024-07-18T15:00:00")])
            .iCalendar(ICalendarOptions(times: .utc, stamp: Self.stamp.addingTimeInterval(3600)))
        #expect(values("UID", before) == ["1-2024W29-FIT1000-Lecture-01@monash-schedule.swift-api-sdks"])
        #expect(values("UID", after) == values("UID", before))
        #expect(values("DTSTART", after) == ["20240718T040000Z"])
        let oldSequence = try #require(values("SEQUENCE", before).first.flatMap(Int.init))
        let newSequence = try #require(values("SEQUENCE", after).first.flatMap(Int.init))
        #expect(newSequence == oldSequence + 60)
        #expect(values("DTSTAMP", after) == ["20240401T203320Z"])
    }

    @Test("UIDs stay unique when a class's own name looks like another's repeat suffix")
    func uniqueAgainstLookalikes() throws {
        let classes = [("Lab 1", "15"), ("Lab 1", "16"), ("Lab 1.2", "17")].map { kind, day in
            #"{"start_time": "2024-07-\#(day)T09:00:00", "end_time": "2024-07-\#(day)T10:00:00", "course": "FIT1000", "#
                + #""class": "\#(kind)", "lecturer": "L", "room": "R", "campus": "Clayton"}"#
        }
        let payload =
            #"{"week": 1, "student": {"id": "1", "name": "T"}, "schedules": ["#
            + classes.joined(separator: ", ") + #"], "parkings": [], "stops": []}"#
        let text = try Timetable.decode(from: Data(payload.utf8)).iCalendar()
        let uids = values("UID", text)
        #expect(uids.count == 3)
        #expect(Set(uids).count == 3, "\(uids)")
    }

    @Test("Classes starting together give the same file whatever order the API lists them in")
    func orderOfTies() throws {
        let classes = [("FIT2004", "Lab 02", "R2"), ("FIT1000", "Lab 01", "R1"), ("FIT1000", "Lab 01", "R0")].map {
            #"{"start_time": "2024-07-15T09:00:00", "end_time": "2024-07-15T10:00:00", "course": "\#($0.0)", "#
                + #""class": "\#($0.1)", "lecturer": "L", "room": "\#($0.2)", "campus": "Clayton"}"#
        }
        func file(_ order: [Int]) throws -> String {
            let payload =
                #"{"week": 1, "student": {"id": "1", "name": "T"}, "schedules": ["#
                + order.map { classes[$0] }.joined(separator: ", ") + #"], "parkings": [], "stops": []}"#
            return try Timetable.decode(from: Data(payload.utf8)).iCalendar(ICalendarOptions(stamp: Self.stamp))
        }
        let first = try file([0, 1, 2])
        #expect(try file([2, 1, 0]) == first)
        #expect(try file([1, 0, 2]) == first)
        #expect(values("LOCATION", first) == ["R0\\, Clayton", "R1\\, Clayton", "R2\\, Clayton"])
    }

    @Test("The same class next week is another event; so is another student's")
    func otherWeeksAndStudents() throws {
        let this = try week([("2024-07-15T09:00:00", "2024-07-15T10:00:00")]).iCalendar()
        let next = try week([("2024-07-22T09:00:00", "2024-07-22T10:00:00")]).iCalendar()
        #expect(values("UID", next) == ["1-2024W30-FIT1000-Lecture-01@monash-schedule.swift-api-sdks"])
        #expect(values("UID", this) != values("UID", next))
        var other = try week([("2024-07-15T09:00:00", "2024-07-15T10:00:00")])
        other.student = Student(id: "2", name: "Other")
        #expect(values("UID", other.iCalendar()) == ["2-2024W29-FIT1000-Lecture-01@monash-schedule.swift-api-sdks"])
    }

    @Test("The week is the campus week: Sunday 23:30 in Melbourne is still the week that began on Monday")
    func campusWeek() throws {
        // Sunday 21 July 2024 23:30 AEST is 13:30 UTC the same day; Monday 22 July 00:30 AEST is
        // Sunday 14:30 UTC but already ISO week 30 on campus.
        let text = try week([
            ("2024-07-21T23:30:00", "2024-07-21T23:45:00"), ("2024-07-22T00:30:00", "2024-07-22T00:45:00"),
        ])
        .iCalendar()
        #expect(values("UID", text).map { $0.prefix(10) } == ["1-2024W29-", "1-2024W30-"])
    }

    @Test("SEQUENCE is the whole minutes since 1970 of the stamp; a stamp in the same minute keeps it")
    func sequence() {
        #expect(ICalendarOptions(stamp: Date(timeIntervalSince1970: 0)).sequence == 0)
        #expect(ICalendarOptions(stamp: Date(timeIntervalSince1970: 119)).sequence == 1)
        #expect(ICalendarOptions(stamp: Self.stamp).sequence == 28_533_333)
        // 2038, when seconds overflow 32 bits, is far inside the range.
        #expect(ICalendarOptions(stamp: Date(timeIntervalSince1970: 2_147_483_648)).sequence < Int(Int32.max))
    }

    @Test(
        "REFRESH-INTERVAL and X-PUBLISHED-TTL say how often a subscriber fetches again",
        arguments: [
            (Duration.seconds(900), "PT15M" as String?), (.seconds(3600), "PT1H"), (.seconds(5400), "PT1H30M"),
            (.seconds(86_400), "P1D"), (.seconds(90_061), "P1DT1H1M1S"), (.milliseconds(999), nil),
        ]
    )
    func refreshInterval(interval: Duration, text: String?) throws {
        let week = try Timetable.decode(from: Fixtures.sample)
        let lines = week.iCalendar(ICalendarOptions(stamp: Self.stamp, refreshInterval: interval))
            .components(separatedBy: "\r\n")
        if let text {
            #expect(lines.contains("REFRESH-INTERVAL;VALUE=DURATION:\(text)"))
            #expect(lines.contains("X-PUBLISHED-TTL:\(text)"))
            let refresh = try #require(lines.firstIndex { $0.hasPrefix("REFRESH-INTERVAL") })
            #expect(refresh < (lines.firstIndex(of: "BEGIN:VTIMEZONE") ?? 0), "a calendar property, before components")
        } else {
            #expect(!lines.contains { $0.hasPrefix("REFRESH-INTERVAL") || $0.hasPrefix("X-PUBLISHED-TTL") })
        }
    }
}
