import CLISupport
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@testable import MonashCLI

@Suite("monash commands, in-process against the sandbox")
struct CommandTests {
    @Test("timetable: the sample week as a table in local time")
    func timetable() async {
        let result = await monash(["--sandbox", "timetable"])
        #expect(result.exitCode == 0)
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout == """
                Week 8 · Kier (305491) · times in Australia/Melbourne

                DAY         TIME         COURSE   CLASS       ROOM  LECTURER  CAMPUS
                Fri 13 Mar  10:00–12:00  FIT1031  Lecture 01  S4    Arun      13 College Walk, Clayton

                """
        )
    }

    @Test("timetable --time-zone local: times in the user's zone, said in the header")
    func timetableElsewhere() async {
        let result = await monash(["--sandbox", "timetable", "--time-zone", "local"]) { $0.timeZone = .gmt }
        #expect(result.stdout.hasPrefix("Week 8 · Kier (305491) · times in GMT\n"))
        #expect(result.stdout.contains("Thu 12 Mar  23:00–Fri 13 Mar 01:00  FIT1031"))
    }

    @Test("timetable --json: campus times with their offset")
    func timetableJSON() async throws {
        let result = await monash(["--sandbox", "--json", "timetable"])
        #expect(result.exitCode == 0)
        let output = try result.json(TimetableOutput.self)
        #expect(output.week == 8)
        #expect(output.student == .init(id: "305491", name: "Kier"))
        #expect(output.timeZone == "Australia/Melbourne")
        #expect(
            output.classes == [
                .init(
                    start: "2020-03-13T10:00:00+11:00",
                    end: "2020-03-13T12:00:00+11:00",
                    course: "FIT1031",
                    kind: "Lecture 01",
                    lecturer: "Arun",
                    room: "S4",
                    campus: "13 College Walk, Clayton"
                )
            ]
        )
    }

    @Test("MONASH_CAMPUS_ZONE: the API's times are read, and by default shown, in that zone; a bad name exits 1")
    func campusZone() async throws {
        let kualaLumpur = ["MONASH_CAMPUS_ZONE": "Asia/Kuala_Lumpur"]
        let campus = await monash(["--sandbox", "--json", "timetable"], variables: kualaLumpur)
        #expect(campus.exitCode == 0, "\(campus.stderr)")
        let output = try campus.json(TimetableOutput.self)
        #expect(output.timeZone == "Asia/Kuala_Lumpur")
        #expect(output.classes.first?.start == "2020-03-13T10:00:00+08:00")
        let melbourne = await monash(
            ["--sandbox", "--json", "--time-zone", "Australia/Melbourne", "timetable"],
            variables: kualaLumpur
        )
        #expect(try melbourne.json(TimetableOutput.self).classes.first?.start == "2020-03-13T13:00:00+11:00")
        // Named as spelled, as --time-zone is: Foundation would call this zone GMT.
        let utc = await monash(["--sandbox", "--json", "timetable"], variables: ["MONASH_CAMPUS_ZONE": "utc"])
        #expect(try utc.json(TimetableOutput.self).timeZone == "UTC")
        let calendar = await monash(["--sandbox", "timetable", "--ics"], variables: ["MONASH_CAMPUS_ZONE": "utc"])
        #expect(calendar.stdout.contains("\r\nTZID:UTC\r\n"))
        #expect(calendar.stdout.contains(";TZID=UTC:"))
        #expect(!calendar.stdout.contains("GMT"))
        let bad = await monash(["--sandbox", "timetable"], variables: ["MONASH_CAMPUS_ZONE": "Mars/Olympus"])
        #expect(bad.exitCode == 1)
        #expect(bad.stderr.contains("MONASH_CAMPUS_ZONE is \"Mars/Olympus\", which names no time zone."))
    }

    @Test("timetable --day: one day of the larger week, sorted")
    func oneDay() async throws {
        let large = ["MONASH_SANDBOX_WEEK": "large"]
        let friday = await monash(["--sandbox", "--json", "timetable", "--day", "2024-04-05"], variables: large)
        #expect(try friday.json(TimetableOutput.self).classes.map(\.course) == ["FIT3171", "FIT2004", "MTH2010"])

        let clock = TestClock(start: Date(timeIntervalSince1970: 1_712_120_400))  // Wed 3 Apr 2024 16:00 AEDT
        let today = await monash(["--sandbox", "timetable", "--day", "today"], variables: large) { $0.clock = clock }
        #expect(today.stdout.split(separator: "\n").filter { $0.hasPrefix("Wed 3 Apr  ") }.count == 3)
        #expect(today.stdout.contains("Wed 3 Apr  08:00–10:00  FIT2099  Workshop 03"))

        let saturday = await monash(["--sandbox", "timetable", "--day", "2024-04-06"], variables: large)
        #expect(saturday.stdout.hasSuffix("\nNo classes on Sat 6 Apr 2024.\n"))
    }

    @Test("parking: most free first, numbers aligned")
    func parking() async {
        let result = await monash(["--sandbox", "parking"], variables: ["MONASH_SANDBOX_WEEK": "large"])
        #expect(
            result.stdout == """
                CAR PARK                FREE
                Peninsula car park 3     320
                Clayton N1 multideck     212
                Caulfield multideck      154
                Clayton West 1            87
                Parkville Royal Parade    12
                Clayton South 2            0

                """
        )
    }

    @Test(
        "buses --from: a stop's departures; a stop with none predicted is an empty list, naming the stops that have some"
    )
    func buses() async throws {
        let large = ["MONASH_SANDBOX_WEEK": "large"]
        let clayton = await monash(["--sandbox", "buses", "--from", "clayton"], variables: large)
        let lines = clayton.stdout.split(separator: "\n")
        #expect(lines.first == "Times in Australia/Melbourne")
        #expect(lines.dropFirst().first == "PREDICTED        FROM     TO")
        #expect(lines.count == 11)
        #expect(lines.dropFirst(2).allSatisfy { $0.contains("  Clayton  ") })

        let unknown = await monash(["--sandbox", "buses", "--from", "Narnia"], variables: large)
        #expect(unknown.exitCode == 0)
        #expect(unknown.stdout == "No buses reported.\n")
        #expect(
            unknown.stderr == """
                No buses are predicted from "Narnia" now; stops with departures: Huntingdale Station, Clayton, \
                Caulfield, Peninsula.

                """
        )
        let unknownJSON = await monash(["--sandbox", "--json", "buses", "--from", "Narnia"], variables: large)
        #expect(unknownJSON.exitCode == 0)
        #expect(try JSONDecoder().decode([JSONValue].self, from: Data(unknownJSON.stdout.utf8)).isEmpty)
    }

    @Test("next --from with no buses predicted (at night) still answers: the next class, and no bus")
    func nextWithoutBuses() async throws {
        let week = #"""
            {"week": 8, "student": {"id": "1", "name": "K"},
             "schedules": [{"start_time": "2020-03-13T10:00:00", "end_time": "2020-03-13T12:00:00",
                            "course": "FIT1031", "class": "Lecture 01", "lecturer": "Arun", "room": "S4",
                            "campus": "Clayton"}],
             "parkings": [{"name": "P", "slot": 3}], "stops": []}
            """#
        let transport = ScriptedTransport([.respond(status: 200, headers: [:], body: Data(week.utf8))])
        let result = await monash(["--base-url", "https://schedule.example.edu", "--json", "next", "--from", "Clayton"])
        {
            $0.transport = transport
        }
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr == "No buses are predicted now.\n")
        let output = try JSONDecoder().decode(JSONValue.self, from: Data(result.stdout.utf8))
        #expect(output["nextClass"]?["course"] == "FIT1031")
        #expect(output["nextBus"] == JSONValue.null)
    }

    @Test("next: the injected clock decides what is next")
    func next() async {
        // Tue 2 Apr 2024 10:00 AEDT, during FIT2004 Lecture 01.
        let clock = TestClock(start: Date(timeIntervalSince1970: 1_712_012_400))
        let result = await monash(
            ["--sandbox", "next", "--from", "Clayton"],
            variables: ["MONASH_SANDBOX_WEEK": "large"]
        ) {
            $0.clock = clock
        }
        #expect(result.exitCode == 0)
        #expect(
            result.stdout == """
                Times in Australia/Melbourne

                Now         FIT2004 Lecture 01 until 11:00, LTB G81
                Next class  FIT2004 Applied 04 · Tue 2 Apr 12:00–14:00 · in 2 h
                            Woodside 201, 20 Exhibition Walk, Clayton · Priyanka Rao
                Next bus    Clayton -> Huntingdale Station · Tue 2 Apr 10:03 · in 3 min
                Parking     Peninsula car park 3 (320 free)

                """
        )
    }

    @Test("next --at --json: every key present, null when nothing is left")
    func nextJSON() async throws {
        struct Output: Decodable {
            var now: String
            var nextClass: TimetableOutput.Class?
            var inProgress: TimetableOutput.Class?
        }
        let before = await monash(["--sandbox", "--json", "next", "--at", "2020-03-13T08:00"])
        let early = try before.json(Output.self)
        #expect(early.now == "2020-03-13T08:00:00+11:00")
        #expect(early.nextClass?.course == "FIT1031")
        let after = await monash(["--sandbox", "--json", "next", "--at", "2020-03-13 12:00"])
        #expect(after.stdout.contains(#""nextClass" : null"#) || after.stdout.contains(#""nextClass": null"#))
        #expect(after.stdout.contains("inProgress"))
        #expect(try after.json(Output.self).nextClass == nil)

        // A script's columns work whether or not a class is left.
        let fields = ["--format", "csv", "--fields", "now,nextClass.start"]
        let csv = await monash(["--sandbox", "next", "--at", "2020-03-13 12:00"] + fields)
        #expect(csv.exitCode == 0, "\(csv.stderr)")
        #expect(csv.stdout == "now,nextClass.start\n2020-03-13T12:00:00+11:00,\n")
    }
}

@Suite("monash failures, in-process")
struct FailureTests {
    static let remote = "https://schedule.example.edu"

    @Test("HTTP 500 exits 7 with the server's message, status and request id")
    func serverError() async throws {
        let transport = ScriptedTransport([
            .json(["error": "database unavailable"], status: 500, headers: [.xRequestID: "req-500"])
        ])
        let result = await monash(["--base-url", Self.remote, "timetable"]) { $0.transport = transport }
        #expect(result.exitCode == 7)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "error: database unavailable (HTTP 500, request req-500)\n")
        #expect(transport.requests.map(\.url.absoluteString) == ["https://schedule.example.edu/schedules"])
    }

    @Test("HTTP 500 with --json: the error object")
    func serverErrorJSON() async throws {
        let transport = ScriptedTransport([.status(500)])
        let result = await monash(["--base-url", Self.remote, "--json", "parking"]) { $0.transport = transport }
        #expect(result.exitCode == 7)
        #expect(result.stdout.isEmpty)
        #expect(
            try result.errorReport()
                == ErrorReport(
                    code: "api_error",
                    message: "Internal Server Error",
                    httpStatus: 500,
                    retryable: true,
                    exitCode: 7
                )
        )
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("HTTP 500 from a real server (loopback) exits 7")
    func serverErrorOnLoopback() async throws {
        try await withBrokenService { baseURL in
            let result = await monash(["--base-url", baseURL, "next"])
            #expect(result.exitCode == 7)
            #expect(result.stderr == "error: database unavailable (HTTP 500, request req-500)\n")
        }
    }

    @Test("A malformed payload exits 7 naming the key path")
    func malformed() async {
        let broken =
            #"{"week": 8, "student": {"id": "1", "name": "K"}, "schedules": [], "parkings": [{"name": "P"}], "stops": []}"#
        let transport = ScriptedTransport([.respond(status: 200, headers: [:], body: Data(broken.utf8))])
        let result = await monash(["--base-url", Self.remote, "parking"]) { $0.transport = transport }
        #expect(result.exitCode == 7)
        #expect(result.stderr.contains("missing key `parkings[0].slot`"))
    }

    @Test("Connection refused exits 6; without --no-retry it was tried three times")
    func connectionRefused() async throws {
        try await withRefusingBaseURL { baseURL in
            let once = await monash(["--base-url", baseURL, "--no-retry", "timetable"])
            #expect(once.exitCode == 6)
            #expect(once.stderr.hasPrefix("error: "))
            #expect(once.stderr.contains("hint: Check the base URL"))

            let clock = TestClock()
            let retried = await monash(["--base-url", baseURL, "--verbose", "--json", "timetable"]) {
                $0.clock = clock
            }
            #expect(retried.exitCode == 6)
            #expect(clock.sleeps.count == 2)
            #expect(retried.stderr.components(separatedBy: "-> network after").count - 1 == 3)
            let report = try retried.errorReport()
            #expect(report.code == "network")
            #expect(report.retryable)
        }
    }

    @Test(
        "Bad arguments exit 64",
        arguments: [
            ["timetable", "--day", "2020-02-30"],
            ["timetable", "--day"],
            ["parking", "--bogus"],
            ["buses", "--from"],
            ["next", "--at", "tomorrow-ish"],
            ["--timeout", "-1", "--sandbox", "parking"],
            ["timetable"],
            ["--time-zone", "Mars/Olympus", "--sandbox", "timetable"],
        ]
    )
    func badArguments(arguments: [String]) async {
        let result = await monash(arguments)
        #expect(result.exitCode == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: "))
    }

    @Test("Bad arguments with --json: a usage object")
    func badArgumentsJSON() async throws {
        let result = await monash(["--json", "timetable", "--dya", "today"])
        #expect(result.exitCode == 64)
        let report = try result.errorReport()
        #expect(report.code == "usage")
        #expect(report.message.contains("--dya"))
    }
}
