import CLISupport
import Foundation
import HTTPCore
import Testing

/// A few runs of the real `monash` executable: what the OS and a shell see.
@Suite("The built monash executable")
struct BinaryTests {
    static let melbourne = ["TZ": "Australia/Melbourne"]

    @Test("monash --sandbox timetable works as a process")
    func sandboxTimetable() async throws {
        let result = try await runBuiltMonash(["--sandbox", "timetable"], variables: Self.melbourne)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        // The sample week is moved to this week (or the next): its Friday class is within 13 days.
        let header = try #require(result.stdout.split(separator: "\n").first)
        #expect(header.hasPrefix("Week ") && header.hasSuffix(" · Kier (305491) · times in Australia/Melbourne"))
        #expect(result.stdout.contains("10:00–12:00  FIT1031  Lecture 01  S4    Arun"))
        let next = try await runBuiltMonash(["--sandbox", "--json", "next"])
        let value = try next.json(JSONValue.self)
        let start = try #require(value["nextClass"]?["start"]?.stringValue)
        let formatter = ISO8601DateFormatter()
        let date = try #require(formatter.date(from: start))
        #expect(date > Date() && date.timeIntervalSinceNow < 14 * 86_400)
    }

    @Test("--json parking decodes")
    func json() async throws {
        struct Park: Decodable, Equatable {
            var name: String
            var freeSlots: Int
        }
        let result = try await runBuiltMonash(
            ["parking", "--sandbox", "--json"],
            variables: ["MONASH_SANDBOX_WEEK": "large"]
        )
        #expect(result.exitCode == 0)
        let parks = try result.json([Park].self)
        #expect(parks.count == 6)
        #expect(parks.first == Park(name: "Peninsula car park 3", freeSlots: 320))
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A 500 exits 7, with --json as an object on stderr")
    func serverError() async throws {
        try await withBrokenService { baseURL in
            let human = try await runBuiltMonash(["--base-url", baseURL, "buses"])
            #expect(human.exitCode == 7)
            #expect(human.stderr == "error: database unavailable (HTTP 500, request req-500)\n")
            let json = try await runBuiltMonash(["--json", "--base-url", baseURL, "buses"])
            #expect(json.exitCode == 7)
            #expect(json.stdout.isEmpty)
            let report = try json.errorReport()
            #expect(report.httpStatus == 500)
            #expect(report.requestId == "req-500")
        }
    }

    @Test("Connection refused exits 6")
    func connectionRefused() async throws {
        try await withRefusingBaseURL { baseURL in
            let result = try await runBuiltMonash(["--no-retry", "next"], variables: ["MONASH_BASE_URL": baseURL])
            #expect(result.exitCode == 6)
            #expect(result.stderr.hasPrefix("error: "))
        }
    }

    @Test("Bad arguments exit 64 with usage on stderr")
    func badArguments() async throws {
        let result = try await runBuiltMonash(["timetable", "--day", "someday"])
        #expect(result.exitCode == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: The value 'someday' is invalid for '--day <date>'"))
    }

    @Test("Shell completion scripts are printed on stdout")
    func completion() async throws {
        let result = try await runBuiltMonash(["--generate-completion-script", "bash"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("_monash"))
    }
}
