import CLISupport
import Foundation
import HTTPCore
import HTTPCoreTesting
import MonashSandbox
import Testing

@testable import MonashCLI

@Suite("monash: time zones, a sandbox week that follows the date, plain http")
struct ZoneAndWeekTests {
    /// Wed 16 Jul 2025 13:00 in Melbourne (AEST, +10), long after the published weeks.
    static let july = Date(timeIntervalSince1970: 1_752_634_800)

    @Test("The campus zone by default, whatever the computer's; --time-zone names another")
    func zones() async throws {
        let campus = await monash(["--sandbox", "timetable"]) { $0.timeZone = .gmt }
        #expect(campus.stdout.hasPrefix("Week 8 · Kier (305491) · times in Australia/Melbourne\n"))
        #expect(campus.stdout.contains("Fri 13 Mar  10:00–12:00  FIT1031"))

        let london = await monash(["--sandbox", "--time-zone", "Europe/London", "timetable"])
        #expect(london.stdout.contains("times in Europe/London"))
        #expect(london.stdout.contains("Thu 12 Mar  23:00–Fri 13 Mar 01:00  FIT1031"))

        let json = await monash(["--sandbox", "timetable", "--json", "--time-zone", "Asia/Tokyo"])
        let output = try json.json(TimetableOutput.self)
        #expect(output.timeZone == "Asia/Tokyo")
        #expect(output.classes.first?.start == "2020-03-13T08:00:00+09:00")

        let buses = await monash(["--sandbox", "buses", "--time-zone", "Asia/Tokyo"])
        #expect(buses.stdout.hasPrefix("Times in Asia/Tokyo\n\nPREDICTED"))
        #expect(buses.stdout.contains("Fri 13 Mar 04:04  Clayton"))
    }

    @Test("--at is read in the --time-zone zone")
    func atInZone() async throws {
        struct Output: Decodable { var now: String }
        let result = await monash(["--sandbox", "--json", "next", "--at", "2020-03-12T22:00", "--time-zone", "UTC"])
        #expect(try result.json(Output.self).now == "2020-03-12T22:00:00Z")
    }

    @Test("An unknown zone is a usage error")
    func unknownZone() async {
        let result = await monash(["--sandbox", "timetable", "--time-zone", "Mars/Olympus"])
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("--time-zone <zone>"))
    }

    @Test("The sandbox week moves to today's week: next shows a class whatever the date")
    func weekFollowsTheDate() async throws {
        let clock = TestClock(start: Self.july)
        let next = await monash(["--sandbox", "next"]) { $0.clock = clock }
        #expect(next.exitCode == 0)
        // The sample's Friday class, in the week of Wed 16 Jul 2025.
        #expect(next.stdout.contains("Next class  FIT1031 Lecture 01 · Fri 18 Jul 10:00–12:00 · in 1 d 21 h"))

        let timetable = await monash(["--sandbox", "--json", "timetable"]) { $0.clock = clock }
        #expect(try timetable.json(TimetableOutput.self).classes.first?.start == "2025-07-18T10:00:00+10:00")
    }

    @Test("The sandbox's week ends in MONASH_CAMPUS_ZONE's time: a class not yet begun there is still next")
    func sandboxWeekInCampusZone() async throws {
        // Fri 13 Mar 2020 09:30 in Kuala Lumpur, 12:30 in Melbourne: the 10:00 class is ahead.
        let clock = TestClock(start: Date(timeIntervalSince1970: 1_584_063_000))
        let next = await monash(
            ["--sandbox", "--json", "next"],
            variables: ["MONASH_CAMPUS_ZONE": "Asia/Kuala_Lumpur"]
        ) {
            $0.clock = clock
        }
        #expect(next.exitCode == 0, "\(next.stderr)")
        let output = try JSONDecoder().decode(JSONValue.self, from: Data(next.stdout.utf8))
        #expect(output["nextClass"]?["start"] == "2020-03-13T10:00:00+08:00")
    }

    @Test("Once this week's last class has ended, the next week's are served, under the same week number")
    func rollsOver() async throws {
        // Sat 19 Jul 2025 10:00 in Melbourne: Friday's class is over.
        let clock = TestClock(start: Date(timeIntervalSince1970: 1_752_883_200))
        let json = await monash(["--sandbox", "--json", "timetable"]) { $0.clock = clock }
        let output = try json.json(TimetableOutput.self)
        #expect(output.classes.first?.start == "2025-07-25T10:00:00+10:00")
        let next = await monash(["--sandbox", "next"]) { $0.clock = clock }
        #expect(next.stdout.contains("Fri 25 Jul 10:00–12:00"))

        // Mon 21 Jul: the same dates, so the same week number.
        clock.advance(by: .seconds(2 * 86_400))
        let monday = try await monash(["--sandbox", "--json", "timetable"]) { $0.clock = clock }
            .json(TimetableOutput.self)
        #expect(monday.classes.first?.start == output.classes.first?.start)
        #expect(monday.week == output.week)
    }

    @Test("While this week's last class is under way, it is in progress, not replaced by next week's")
    func lastClassUnderWay() async throws {
        // Fri 18 Jul 2025 10:30 in Melbourne: the 10:00–12:00 class has begun.
        let clock = TestClock(start: Date(timeIntervalSince1970: 1_752_798_600))
        let json = await monash(["--sandbox", "--json", "next"]) { $0.clock = clock }
        #expect(json.exitCode == 0, "\(json.stderr)")
        let output = try JSONDecoder().decode(JSONValue.self, from: Data(json.stdout.utf8))
        #expect(output["inProgress"]?["course"] == "FIT1031")
        #expect(output["inProgress"]?["start"] == "2025-07-18T10:00:00+10:00")
    }

    @Test("MONASH_SANDBOX_WEEK still picks the large week, which moves too; an unknown one is exit 1")
    func largeWeek() async throws {
        let clock = TestClock(start: Self.july)
        let large = await monash(["--sandbox", "--json", "timetable"], variables: ["MONASH_SANDBOX_WEEK": "large"]) {
            $0.clock = clock
        }
        let output = try large.json(TimetableOutput.self)
        #expect(output.student.name == "Priya Sharma")
        #expect(output.classes.count == 12)
        #expect(output.classes.allSatisfy { $0.start.hasPrefix("2025-07-") })

        let unknown = await monash(["--sandbox", "parking"], variables: ["MONASH_SANDBOX_WEEK": "huge"])
        #expect(unknown.exitCode == 1)
        #expect(unknown.stderr == "error: MONASH_SANDBOX_WEEK is \"huge\"; it can be sample or large.\n")
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Without a clock the module serves the payloads as published")
    func published() {
        let module = MonashSandboxModule()
        #expect(module.body(for: .sample) == MonashSandboxModule.Week.sample.payload)
        let pinned = MonashSandboxModule(today: { sampleWeekMonday })
        #expect(pinned.body(for: .sample) == MonashSandboxModule.Week.sample.payload)
    }

    @Test("A plain http base URL works for a remote host: the API has no credentials")
    func plainHTTP() async throws {
        let transport = ScriptedTransport([
            .respond(status: 200, headers: [:], body: Data(MonashSandboxModule.Week.sample.payload.utf8))
        ])
        let result = await monash(["--base-url", "http://schedule.example.edu", "parking"]) { $0.transport = transport }
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Clayton live feed"))
        #expect(transport.requests.map(\.url.absoluteString) == ["http://schedule.example.edu/schedules"])
    }

    @Test(
        "--format and --fields on every list command",
        arguments: [
            (["timetable"], "course,room", "course,room\nFIT1031,S4\n"),
            (["parking"], "name,freeSlots", "name,freeSlots\nClayton live feed,645\n"),
            (
                ["buses"], "departureStop,predictedArrival",
                "departureStop,predictedArrival\nClayton,2020-03-13T06:04:05+11:00\n"
            ),
        ]
    )
    func formats(command: [String], fields: String, csv: String) async {
        let result = await monash(["--sandbox"] + command + ["--format", "csv", "--fields", fields])
        #expect(result.exitCode == 0)
        #expect(result.stdout == csv)
        let tsv = await monash(["--sandbox"] + command + ["--format", "tsv", "--fields", fields])
        #expect(tsv.stdout == csv.replacingOccurrences(of: ",", with: "\t"))
        let jsonl = await monash(["--sandbox"] + command + ["--format", "jsonl"])
        #expect(jsonl.stdout.split(separator: "\n").count == 1)
        #expect(jsonl.stdout.hasPrefix("{"))
    }

    @Test("timetable --format json keeps the week around the classes; --fields applies to the classes")
    func timetableEnvelope() async throws {
        let result = await monash(["--sandbox", "timetable", "--format", "json", "--fields", "course"])
        let value = try result.json(JSONValue.self)
        #expect(value["week"] == 8)
        #expect(value["classes"] == [["course": "FIT1031"]])
    }
}
