import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@testable import MonashCLI

@Suite("monash: the zone is printed as the user named it; classes on daylight-saving nights")
struct ZoneNameTests {
    @Test(
        "--time-zone prints what was asked for, in the time-zone database's spelling",
        arguments: [("UTC", "UTC"), ("utc", "UTC"), ("Etc/UTC", "Etc/UTC"), ("europe/london", "Europe/London")]
    )
    func named(argument: String, shown: String) async throws {
        let table = await monash(["--sandbox", "timetable", "--time-zone", argument])
        #expect(table.exitCode == 0, "\(table.stderr)")
        #expect(table.stdout.hasPrefix("Week 8 · Kier (305491) · times in \(shown)\n"))
        let json = await monash(["--sandbox", "--json", "timetable", "--time-zone", argument])
        #expect(try json.json(TimetableOutput.self).timeZone == shown)
        let buses = await monash(["--sandbox", "buses", "--time-zone", argument])
        #expect(buses.stdout.hasPrefix("Times in \(shown)\n"))
        let next = await monash(["--sandbox", "next", "--time-zone", argument])
        #expect(next.stdout.hasPrefix("Times in \(shown)\n"))
    }

    @Test("UTC times are still written with Z")
    func utcTimes() async throws {
        let json = await monash(["--sandbox", "--json", "timetable", "--time-zone", "UTC"])
        #expect(try json.json(TimetableOutput.self).classes.first?.start == "2020-03-12T23:00:00Z")
    }

    @Test("local is named by TZ when TZ names the zone in use, else by the zone's identifier")
    func local() async throws {
        let utc = await monash(["--sandbox", "--json", "timetable", "--time-zone", "local"], variables: ["TZ": ":UTC"])
        {
            $0.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        }
        #expect(try utc.json(TimetableOutput.self).timeZone == "UTC")
        let other = await monash(
            ["--sandbox", "--json", "timetable", "--time-zone", "local"],
            variables: ["TZ": "UTC"]
        )
        #expect(try other.json(TimetableOutput.self).timeZone == "Australia/Melbourne", "TZ names another zone")
        let unset = await monash(["--sandbox", "--json", "timetable", "--time-zone", "local"])
        #expect(try unset.json(TimetableOutput.self).timeZone == "Australia/Melbourne")
    }

    @Test("A class at 02:30 on the night Melbourne's clocks go forward runs 03:30–04:30, in the table, JSON and ICS")
    func gapClass() async throws {
        let payload = """
            {"week": 10, "student": {"id": "305491", "name": "Kier"}, "schedules": [{"start_time": \
            "2024-10-06T02:30:00", "end_time": "2024-10-06T03:30:00", "course": "FIT1031", "class": "Lecture 01", \
            "lecturer": "Arun", "room": "S4", "campus": "Clayton"}], "parkings": [], "stops": []}
            """
        func run(_ arguments: [String]) async -> CommandResult {
            let transport = ScriptedTransport([.respond(status: 200, headers: [:], body: Data(payload.utf8))])
            return await monash(["--base-url", "http://schedule.example.edu"] + arguments) { $0.transport = transport }
        }
        let json = await run(["--json", "timetable"])
        let session = try #require(try json.json(TimetableOutput.self).classes.first)
        #expect(session.start == "2024-10-06T03:30:00+11:00")
        #expect(session.end == "2024-10-06T04:30:00+11:00")
        let table = await run(["timetable"])
        #expect(table.stdout.contains("Sun 6 Oct  03:30–04:30  FIT1031"), "\(table.stdout)")
        let ics = await run(["timetable", "--ics", "--utc"])
        #expect(ics.stdout.contains("\r\nDTSTART:20241005T163000Z\r\nDTEND:20241005T173000Z\r\n"))
    }
}
