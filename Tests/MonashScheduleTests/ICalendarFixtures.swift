import Foundation
import MonashSchedule
import Testing

/// Weeks for the calendar export, each with the events it must produce, written down by hand
/// (UTC instants worked out from Melbourne's rules, not by the code under test).
enum ICalendarFixtures {
    struct Event: Codable, Equatable {
        var uid: String
        var start: String
        var end: String?
        var summary: String
        var location: String?
        var description: String?
    }

    struct Week {
        var name: String
        var json: String
        var events: [Event]
        /// The campus zone the week is read in.
        var zone = "Australia/Melbourne"
    }

    /// What expected.json holds for each file the parser check reads.
    struct ExpectedFile: Codable, Equatable {
        var zone: String
        var sequence: Int
        var refreshInterval: String?
        var events: [Event]
    }

    static let stamp = Date(timeIntervalSince1970: 1_712_000_000)  // 2024-04-01T19:33:20Z

    static func payload(student: String = "305491", name: String = "Kier", _ classes: [String]) -> String {
        #"{"week": 6, "student": {"id": "\#(student)", "name": "\#(name)"}, "schedules": [\#(classes.joined(separator: ", "))], "parkings": [], "stops": []}"#
    }

    static func session(
        _ start: String,
        _ end: String,
        course: String = "FIT2004",
        kind: String = "Lecture 01",
        lecturer: String = "Dr Sarah Okafor",
        room: String = "LTB G81",
        campus: String = "19 Ancora Imparo Way, Clayton"
    ) -> String {
        let fields = [
            ("start_time", start), ("end_time", end), ("course", course), ("class", kind), ("lecturer", lecturer),
            ("room", room), ("campus", campus),
        ]
        let encoded = fields.map { key, value in
            let data = (try? JSONEncoder().encode(value)) ?? Data("\"\"".utf8)
            return "\"\(key)\": \(String(decoding: data, as: UTF8.self))"
        }
        return "{" + encoded.joined(separator: ", ") + "}"
    }

    static let domain = "@monash-schedule.swift-api-sdks"

    /// An expected event at ``session(_:_:course:kind:lecturer:room:campus:)``'s default place and lecturer.
    static func lecture(_ uid: String, _ start: String, _ end: String, _ summary: String) -> Event {
        Event(
            uid: uid,
            start: start,
            end: end,
            summary: summary,
            location: "LTB G81, 19 Ancora Imparo Way, Clayton",
            description: "Lecturer: Dr Sarah Okafor"
        )
    }

    /// Melbourne's daylight time ends on Sunday 7 April 2024 at 03:00 (+11 → +10).
    static let april = Week(
        name: "april-2024",
        json: payload([
            session("2024-04-05T10:00:00", "2024-04-05T12:00:00"),
            session("2024-04-07T02:30:00", "2024-04-07T03:30:00", course: "MTH2010", kind: "Workshop 02"),
            session("2024-04-08T10:00:00", "2024-04-08T11:30:00", kind: "Lecture 02"),
        ]),
        events: [
            lecture(
                "305491-2024W14-FIT2004-Lecture-01" + domain,
                "2024-04-04T23:00:00Z",
                "2024-04-05T01:00:00Z",
                "FIT2004 Lecture 01"
            ),
            // 02:30 happens twice that night; the first (still +11) is meant. 03:30 is +10.
            lecture(
                "305491-2024W14-MTH2010-Workshop-02" + domain,
                "2024-04-06T15:30:00Z",
                "2024-04-06T17:30:00Z",
                "MTH2010 Workshop 02"
            ),
            lecture(
                "305491-2024W15-FIT2004-Lecture-02" + domain,
                "2024-04-08T00:00:00Z",
                "2024-04-08T01:30:00Z",
                "FIT2004 Lecture 02"
            ),
        ]
    )

    /// Melbourne's daylight time starts on Sunday 6 October 2024 at 02:00 (+10 → +11).
    static let october = Week(
        name: "october-2024",
        json: payload([
            session("2024-10-04T10:00:00", "2024-10-04T12:00:00"),
            session("2024-10-06T01:30:00", "2024-10-06T03:30:00", course: "MTH2010", kind: "Workshop 02"),
            session("2024-10-06T02:30:00", "2024-10-06T03:30:00", course: "MTH2010", kind: "Workshop 03"),
            session("2024-10-07T10:00:00", "2024-10-07T11:00:00", kind: "Lecture 02"),
        ]),
        events: [
            lecture(
                "305491-2024W40-FIT2004-Lecture-01" + domain,
                "2024-10-04T00:00:00Z",
                "2024-10-04T02:00:00Z",
                "FIT2004 Lecture 01"
            ),
            // 01:30 is +10; 03:30 is +11: one real hour.
            lecture(
                "305491-2024W40-MTH2010-Workshop-02" + domain,
                "2024-10-05T15:30:00Z",
                "2024-10-05T16:30:00Z",
                "MTH2010 Workshop 02"
            ),
            // 02:30 never happens that night: the class moves to 03:30 (+11) and keeps its hour.
            lecture(
                "305491-2024W40-MTH2010-Workshop-03" + domain,
                "2024-10-05T16:30:00Z",
                "2024-10-05T17:30:00Z",
                "MTH2010 Workshop 03"
            ),
            lecture(
                "305491-2024W41-FIT2004-Lecture-02" + domain,
                "2024-10-06T23:00:00Z",
                "2024-10-07T00:00:00Z",
                "FIT2004 Lecture 02"
            ),
        ]
    )

    /// Text that needs escaping and folding, a class listed twice, and an end before the start.
    static let awkward = Week(
        name: "awkward",
        json: payload(
            name: "Zoë",
            [
                session(
                    "2024-07-15T09:00:00",
                    "2024-07-15T10:00:00",
                    course: "FIT;1008",
                    kind: "Lab, 3",
                    lecturer: "Dr Back\\slash\nand a second line",
                    room:
                        "Ünïcødé Hall 🎓🎓🎓🎓🎓🎓🎓🎓🎓🎓 (room with a very long name that must be folded twice, over three lines)",
                    campus: "Wellington Rd; Clayton"
                ),
                session("2024-07-16T09:00:00", "2024-07-16T10:00:00", course: "FIT1008", kind: "Lab 3"),
                session("2024-07-16T09:00:00", "2024-07-16T10:00:00", course: "FIT1008", kind: "Lab 3"),
                session(
                    "2024-07-17T14:00:00",
                    "2024-07-17T13:00:00",
                    course: "FIT1008",
                    kind: "Lab 4",
                    lecturer: "",
                    room: "",
                    campus: ""
                ),
            ]
        ),
        events: [
            Event(
                uid: "305491-2024W29-FIT-1008-Lab--3" + domain,
                start: "2024-07-14T23:00:00Z",
                end: "2024-07-15T00:00:00Z",
                summary: "FIT;1008 Lab, 3",
                location:
                    "Ünïcødé Hall 🎓🎓🎓🎓🎓🎓🎓🎓🎓🎓 (room with a very long name that must be folded twice, over three lines), Wellington Rd; Clayton",
                description: "Lecturer: Dr Back\\slash\nand a second line"
            ),
            lecture(
                "305491-2024W29-FIT1008-Lab-3" + domain,
                "2024-07-15T23:00:00Z",
                "2024-07-16T00:00:00Z",
                "FIT1008 Lab 3"
            ),
            lecture(
                "305491-2024W29-FIT1008-Lab-3-2" + domain,
                "2024-07-15T23:00:00Z",
                "2024-07-16T00:00:00Z",
                "FIT1008 Lab 3"
            ),
            Event(
                uid: "305491-2024W29-FIT1008-Lab-4" + domain,
                start: "2024-07-17T04:00:00Z",
                end: nil,
                summary: "FIT1008 Lab 4",
                location: nil,
                description: nil
            ),
        ]
    )

    /// New York's daylight time starts on Sunday 10 March 2024 at 02:00 (-5 → -4).
    static let newYorkMarch = Week(
        name: "new-york-march-2024",
        json: payload([
            session("2024-03-08T10:00:00", "2024-03-08T11:00:00"),
            session("2024-03-10T02:30:00", "2024-03-10T03:30:00", course: "MTH2010", kind: "Workshop 02"),
            session("2024-03-11T10:00:00", "2024-03-11T11:00:00", kind: "Lecture 02"),
        ]),
        events: [
            lecture(
                "305491-2024W10-FIT2004-Lecture-01" + domain,
                "2024-03-08T15:00:00Z",
                "2024-03-08T16:00:00Z",
                "FIT2004 Lecture 01"
            ),
            // 02:30 never happens: 03:30 EDT (-4) to 04:30.
            lecture(
                "305491-2024W10-MTH2010-Workshop-02" + domain,
                "2024-03-10T07:30:00Z",
                "2024-03-10T08:30:00Z",
                "MTH2010 Workshop 02"
            ),
            lecture(
                "305491-2024W11-FIT2004-Lecture-02" + domain,
                "2024-03-11T14:00:00Z",
                "2024-03-11T15:00:00Z",
                "FIT2004 Lecture 02"
            ),
        ],
        zone: "America/New_York"
    )

    /// New York's daylight time ends on Sunday 3 November 2024 at 02:00 (-4 → -5).
    static let newYorkNovember = Week(
        name: "new-york-november-2024",
        json: payload([
            session("2024-11-03T01:15:00", "2024-11-03T01:45:00", course: "MTH2010", kind: "Workshop 02"),
            session("2024-11-03T01:30:00", "2024-11-03T02:30:00"),
        ]),
        events: [
            // 01:15 and 01:45 happen twice: the first (-4) is meant.
            lecture(
                "305491-2024W44-MTH2010-Workshop-02" + domain,
                "2024-11-03T05:15:00Z",
                "2024-11-03T05:45:00Z",
                "MTH2010 Workshop 02"
            ),
            // 01:30 is the first (-4); 02:30 happens once (-5): two real hours.
            lecture(
                "305491-2024W44-FIT2004-Lecture-01" + domain,
                "2024-11-03T05:30:00Z",
                "2024-11-03T07:30:00Z",
                "FIT2004 Lecture 01"
            ),
        ],
        zone: "America/New_York"
    )

    static let weeks = [april, october, awkward, newYorkMarch, newYorkNovember]

    static func timetable(_ week: Week) throws -> Timetable {
        let zone = try #require(TimeZone(identifier: week.zone))
        return try Timetable.decode(from: Data(week.json.utf8), timeZone: zone)
    }
}
