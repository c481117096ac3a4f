import Foundation
import MonashSandbox
import MonashSchedule
import Testing

@Suite("iCalendar export of a week's classes")
struct ICalendarTests {
    static let options = ICalendarOptions(stamp: ICalendarFixtures.stamp)

    func lines(_ text: String) -> [String] {
        unfolded(text).components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    func unfolded(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n ", with: "")
    }

    @Test("The documented sample, in UTC, exactly")
    func sampleInUTC() throws {
        let week = try Timetable.decode(from: Fixtures.sample)
        let text = week.iCalendar(ICalendarOptions(times: .utc, stamp: ICalendarFixtures.stamp))
        #expect(
            text
                == [
                    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//swift-api-sdks//MonashSchedule//EN",
                    "CALSCALE:GREGORIAN",
                    "METHOD:PUBLISH", "NAME:Monash week 8 (Kier)", "X-WR-CALNAME:Monash week 8 (Kier)", "BEGIN:VEVENT",
                    "UID:305491-2020W11-FIT1031-Lecture-01@monash-schedule.swift-api-sdks",
                    "DTSTAMP:20240401T193320Z", "SEQUENCE:28533333", "DTSTART:20200312T230000Z",
                    "DTEND:20200313T010000Z",
                    "SUMMARY:FIT1031 Lecture 01", "LOCATION:S4\\, 13 College Walk\\, Clayton",
                    "DESCRIPTION:Lecturer: Arun",
                    "END:VEVENT", "END:VCALENDAR", "",
                ].joined(separator: "\r\n")
        )
    }

    @Test("Zoned times: wall-clock times with the campus TZID and a VTIMEZONE")
    func sampleZoned() throws {
        let text = try Timetable.decode(from: Fixtures.sample).iCalendar(Self.options)
        let lines = lines(text)
        #expect(lines.contains("DTSTART;TZID=Australia/Melbourne:20200313T100000"))
        #expect(lines.contains("DTEND;TZID=Australia/Melbourne:20200313T120000"))
        #expect(lines.contains("TZID:Australia/Melbourne"))
        let begin = try #require(lines.firstIndex(of: "BEGIN:VTIMEZONE"))
        let event = try #require(lines.firstIndex(of: "BEGIN:VEVENT"))
        #expect(begin < event, "the zone is defined before it is used")
    }

    @Test(
        "Daylight-saving weeks: each class at its right instant, in UTC and in the campus zone",
        arguments: [
            ICalendarFixtures.april, ICalendarFixtures.october, ICalendarFixtures.newYorkMarch,
            ICalendarFixtures.newYorkNovember,
        ]
    )
    func daylightSaving(week: ICalendarFixtures.Week) throws {
        let timetable = try ICalendarFixtures.timetable(week)
        let utc = lines(timetable.iCalendar(ICalendarOptions(times: .utc, stamp: ICalendarFixtures.stamp)))
        let starts = utc.filter { $0.hasPrefix("DTSTART:") }
        #expect(starts == week.events.map { "DTSTART:" + compact($0.start) })
        let ends = utc.filter { $0.hasPrefix("DTEND:") }
        #expect(ends == week.events.compactMap { $0.end.map { "DTEND:" + compact($0) } })
        #expect(utc.filter { $0.hasPrefix("UID:") } == week.events.map { "UID:" + $0.uid })
        #expect(!utc.contains("BEGIN:VTIMEZONE"))
    }

    /// A Melbourne observance: daylight time starting at 02:00, or ending at 03:00, on `day`.
    static func melbourne(daylight: Bool, on day: String) -> [String] {
        daylight
            ? ["BEGIN:DAYLIGHT", "DTSTART:\(day)T020000", "TZOFFSETFROM:+1000", "TZOFFSETTO:+1100", "END:DAYLIGHT"]
            : ["BEGIN:STANDARD", "DTSTART:\(day)T030000", "TZOFFSETFROM:+1100", "TZOFFSETTO:+1000", "END:STANDARD"]
    }

    @Test(
        "The VTIMEZONE has each change up to the week; events keep their campus wall-clock times",
        arguments: [
            (
                ICalendarFixtures.april,
                [
                    "DTSTART;TZID=Australia/Melbourne:20240405T100000",
                    "DTSTART;TZID=Australia/Melbourne:20240407T023000",
                    "DTEND;TZID=Australia/Melbourne:20240407T033000",
                    "DTSTART;TZID=Australia/Melbourne:20240408T100000",
                ],
                [melbourne(daylight: true, on: "20231001"), melbourne(daylight: false, on: "20240407")]
            ),
            (
                ICalendarFixtures.october,
                [
                    "DTSTART;TZID=Australia/Melbourne:20241006T013000",
                    "DTEND;TZID=Australia/Melbourne:20241006T033000",
                    // The class at 02:30, a time that night skips, at 03:30 for its hour.
                    "DTSTART;TZID=Australia/Melbourne:20241006T033000",
                    "DTEND;TZID=Australia/Melbourne:20241006T043000",
                ],
                [melbourne(daylight: false, on: "20240407"), melbourne(daylight: true, on: "20241006")]
            ),
        ]
    )
    func campusZone(week: ICalendarFixtures.Week, times: [String], changes: [[String]]) throws {
        let lines = lines(try ICalendarFixtures.timetable(week).iCalendar(Self.options))
        for time in times { #expect(lines.contains(time)) }
        #expect(observances(lines) == changes)
    }

    @Test("A zone without daylight saving has one STANDARD observance")
    func fixedZone() throws {
        let brisbane = try #require(TimeZone(identifier: "Australia/Brisbane"))
        let week = try Timetable.decode(from: Fixtures.sample, timeZone: brisbane)
        let zone = observances(lines(week.iCalendar(Self.options)))
        #expect(zone.count == 1)
        #expect(zone.first?.contains("TZOFFSETTO:+1000") == true)
        #expect(lines(week.iCalendar(Self.options)).contains("DTSTART;TZID=Australia/Brisbane:20200313T100000"))
    }

    @Test("The zone is written under the name given, which Foundation's identifier may not be")
    func zoneNamedAsGiven() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let week = try Timetable.decode(from: Fixtures.sample, timeZone: utc)
        let own = lines(week.iCalendar(Self.options))
        #expect(own.contains("TZID:\(utc.identifier)"))
        var options = Self.options
        options.timeZoneName = "UTC"
        let named = lines(week.iCalendar(options))
        #expect(named.contains("TZID:UTC"))
        #expect(named.contains("DTSTART;TZID=UTC:20200313T100000"))
        #expect(!named.contains { $0.contains("GMT") })
    }

    @Test("Text is escaped: backslashes, semicolons, commas and line breaks")
    func escaping() throws {
        let lines = lines(try ICalendarFixtures.timetable(ICalendarFixtures.awkward).iCalendar(Self.options))
        #expect(lines.contains("SUMMARY:FIT\\;1008 Lab\\, 3"))
        #expect(lines.contains("DESCRIPTION:Lecturer: Dr Back\\\\slash\\nand a second line"))
        #expect(
            lines.contains {
                $0.hasPrefix("LOCATION:Ünïcødé Hall") && $0.hasSuffix("three lines)\\, Wellington Rd\\; Clayton")
            }
        )
        #expect(lines.contains("NAME:Monash week 6 (Zoë)"))
    }

    @Test("Lines are folded at 75 octets without splitting a UTF-8 sequence, and unfold to the original")
    func folding() throws {
        let text = try ICalendarFixtures.timetable(ICalendarFixtures.awkward).iCalendar(Self.options)
        let data = Data(text.utf8)
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "every line ends with CRLF")
        var folded = 0
        for line in data.split(separator: Data("\r\n".utf8)) {
            #expect(line.count <= 75)
            #expect(String(data: Data(line), encoding: .utf8) != nil, "a line splits a character")
            if line.first == UInt8(ascii: " ") { folded += 1 }
        }
        #expect(folded == 2, "the long location is folded twice")
        #expect(
            lines(text).contains {
                $0.contains("🎓🎓🎓🎓🎓🎓🎓🎓🎓🎓 (room with a very long name that must be folded twice\\, over three lines)")
            }
        )
    }

    @Test("Folding is exact: a 75-octet line stays whole; the next octet moves to a continuation line")
    func foldingBoundary() throws {
        let base = #"{"week": 1, "student": {"id": "1", "name": "NAME"}, "schedules": [], "parkings": [], "stops": []}"#
        // "NAME:" + "Monash week 1 (" + name + ")" is 75 octets with a 54-octet name.
        let fits = String(repeating: "a", count: 54)
        let week = try Timetable.decode(from: Data(base.replacingOccurrences(of: "NAME", with: fits).utf8))
        #expect(week.iCalendar(Self.options).contains("\r\nNAME:Monash week 1 (\(fits))\r\n"))
        let over = try Timetable.decode(from: Data(base.replacingOccurrences(of: "NAME", with: fits + "é").utf8))
        #expect(over.iCalendar(Self.options).contains("\r\nNAME:Monash week 1 (\(fits)\r\n é)\r\n"))
    }

    @Test("UIDs are stable across exports; a class listed twice gets -2; an end before the start has no DTEND")
    func identity() throws {
        let week = try ICalendarFixtures.timetable(ICalendarFixtures.awkward)
        let first = lines(week.iCalendar(Self.options))
        let later = lines(week.iCalendar(ICalendarOptions(stamp: ICalendarFixtures.stamp.addingTimeInterval(86_400))))
        #expect(first.filter { $0.hasPrefix("UID:") } == later.filter { $0.hasPrefix("UID:") })
        #expect(first.filter { $0.hasPrefix("UID:") } == ICalendarFixtures.awkward.events.map { "UID:" + $0.uid })
        #expect(first.filter { $0.hasPrefix("DTSTAMP:") } != later.filter { $0.hasPrefix("DTSTAMP:") })
        #expect(first.filter { $0.hasPrefix("DTEND") }.count == 3)
        #expect(first.filter { $0 == "BEGIN:VEVENT" }.count == 4)
    }

    @Test("An empty week is a calendar with its time zone and no events, in UTC too", arguments: [false, true])
    func emptyWeek(utc: Bool) throws {
        let week = try Fixtures.timetable()
        var options = Self.options
        if utc { options.times = .utc }
        let lines = lines(week.iCalendar(options))
        #expect(lines.first == "BEGIN:VCALENDAR" && lines.last == "END:VCALENDAR")
        #expect(lines.contains("BEGIN:VTIMEZONE"), "RFC 5545: a calendar holds at least one component")
        #expect(!lines.contains("BEGIN:VEVENT"))
    }

    @Test("Options: product id, UID domain and calendar name")
    func options() throws {
        let week = try Timetable.decode(from: Fixtures.sample)
        let text = week.iCalendar(
            ICalendarOptions(
                times: .utc,
                stamp: ICalendarFixtures.stamp,
                productID: "-//Uni//App//EN",
                uidDomain: "uni.example",
                calendarName: "My week"
            )
        )
        let lines = lines(text)
        #expect(lines.contains("PRODID:-//Uni//App//EN"))
        #expect(lines.contains("NAME:My week"))
        #expect(lines.contains("UID:305491-2020W11-FIT1031-Lecture-01@uni.example"))
        #expect(!lines.contains { $0.hasPrefix("REFRESH-INTERVAL") || $0.hasPrefix("X-PUBLISHED-TTL") })
    }

    /// Each STANDARD / DAYLIGHT block of the VTIMEZONE, as lines.
    func observances(_ lines: [String]) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in lines {
            if line == "BEGIN:STANDARD" || line == "BEGIN:DAYLIGHT" { current = [] }
            current?.append(line)
            if line == "END:STANDARD" || line == "END:DAYLIGHT", let block = current {
                blocks.append(block)
                current = nil
            }
        }
        return blocks
    }

    /// `2024-04-04T23:00:00Z` → `20240404T230000Z`.
    func compact(_ iso: String) -> String {
        iso.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
    }
}

@Suite("iCalendar files for the parser check (Scripts/ci-monash-ics.sh)")
struct ICalendarFileTests {
    @Test("Every fixture week is written as a zoned and a UTC file with its expected events")
    func writeFiles() throws {
        let directory: URL
        if let out = ProcessInfo.processInfo.environment["MONASH_ICS_OUT"] {
            directory = URL(fileURLWithPath: out)
        } else {
            directory = FileManager.default.temporaryDirectory.appending(path: "monash-ics-\(UUID().uuidString)")
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var expected: [String: ICalendarFixtures.ExpectedFile] = [:]
        let variants: [(suffix: String, times: ICalendarOptions.Times, refresh: Duration?)] = [
            ("", .zoned, nil), ("-utc", .utc, nil), ("-feed", .zoned, .seconds(900)),
        ]
        for week in ICalendarFixtures.weeks {
            let timetable = try ICalendarFixtures.timetable(week)
            for variant in variants {
                let name = week.name + variant.suffix + ".ics"
                let options = ICalendarOptions(
                    times: variant.times,
                    stamp: ICalendarFixtures.stamp,
                    refreshInterval: variant.refresh
                )
                try Data(timetable.iCalendar(options).utf8).write(to: directory.appending(path: name))
                expected[name] = ICalendarFixtures.ExpectedFile(
                    zone: week.zone,
                    sequence: 28_533_333,
                    refreshInterval: variant.refresh == nil ? nil : "PT15M",
                    events: week.events
                )
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(expected).write(to: directory.appending(path: "expected.json"))
        let written = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(Set(written).isSuperset(of: expected.keys.map { $0 } + ["expected.json"]))
        #expect(expected.count == 15)
        if ProcessInfo.processInfo.environment["MONASH_ICS_OUT"] == nil {
            try FileManager.default.removeItem(at: directory)
        }
    }
}
