import APISandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreTesting
import Hummingbird
import Testing

@testable import MonashCLI

let melbourne = TimeZone(identifier: "Australia/Melbourne") ?? .gmt

/// Mon 9 Mar 2020 08:00 in Melbourne: the start of the sample week's published dates.
let sampleWeekMonday = Date(timeIntervalSince1970: 1_583_701_200)
/// Mon 1 Apr 2024 08:00 in Melbourne: the start of the large week's published dates.
let largeWeekMonday = Date(timeIntervalSince1970: 1_711_918_800)

/// Runs `monash` in-process with the local zone Melbourne and, since the sandbox's week follows
/// the command's clock, the clock at the start of the published week (so the payloads' own
/// dates are served) unless `configure` says otherwise.
func monash(
    _ arguments: [String],
    variables: [String: String] = [:],
    configure: (inout CLIEnvironment) -> Void = { _ in }
) async -> CommandResult {
    await CLIRunner.capture(Monash.self, arguments: arguments, variables: variables) { environment in
        environment.timeZone = melbourne
        let large = variables["MONASH_SANDBOX_WEEK"] == "large"
        environment.clock = TestClock(start: large ? largeWeekMonday : sampleWeekMonday)
        configure(&environment)
    }
}

/// A schedule service that fails: `/broken/schedules` answers 500 with an error body and a request id.
@available(macOS 14, iOS 17, tvOS 17, *)
var brokenScheduleModule: CannedResponseModule {
    .failing(path: "broken/schedules", message: "database unavailable", requestID: "req-500")
}

/// Runs `body` with a sandbox serving the broken service; passes its base URL.
@available(macOS 14, iOS 17, tvOS 17, *)
func withBrokenService(_ body: (String) async throws -> Void) async throws {
    try await Sandbox.withRunning(configuration: SandboxConfiguration(modules: [brokenScheduleModule])) { sandbox in
        try await body(sandbox.baseURL.appending(path: "broken").absoluteString)
    }
}

/// Runs `body` with a loopback base URL whose port refuses connections meanwhile.
func withRefusingBaseURL(_ body: (String) async throws -> Void) async throws {
    try await withRefusingPort { port in try await body("http://127.0.0.1:\(port)/monash") }
}

/// The `timetable --json` shape, for decoding in tests.
struct TimetableOutput: Decodable, Equatable {
    struct Student: Decodable, Equatable {
        var id: String
        var name: String
    }

    struct Class: Decodable, Equatable {
        var start: String
        var end: String
        var course: String
        var kind: String
        var lecturer: String
        var room: String
        var campus: String
    }

    var week: Int
    var student: Student
    var timeZone: String
    var classes: [Class]
}

/// Runs the built `monash` as a process, for tests that need the process boundary.
func runBuiltMonash(_ arguments: [String], variables: [String: String] = [:]) async throws -> CommandResult {
    try await BuiltExecutable.run("monash", arguments: arguments, variables: variables)
}
