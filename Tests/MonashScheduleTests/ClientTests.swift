import APISandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import MonashSandbox
import MonashSchedule
import Testing

@Suite("ScheduleClient on a scripted transport")
struct ClientTests {
    static let baseURL = URL(string: "https://schedule.example.edu/api") ?? URL(fileURLWithPath: "/")

    func client(_ steps: [ScriptedTransport.Step]) throws -> (ScheduleClient, ScriptedTransport) {
        let clock = TestClock()
        let transport = ScriptedTransport(steps, clock: clock)
        var configuration = ClientConfiguration(baseURL: Self.baseURL)
        configuration.timeSource = clock
        return (try ScheduleClient(configuration: configuration, transport: transport), transport)
    }

    @Test("timetable() is one GET of {base}/schedules")
    func request() async throws {
        let (client, transport) = try client([.respond(status: 200, headers: [:], body: Fixtures.sample)])
        let week = try await client.timetable()
        #expect(week.week == 8)
        let sent = try #require(transport.requests.first)
        #expect(transport.requests.count == 1)
        #expect(sent.request.method == .get)
        #expect(sent.url.absoluteString == "https://schedule.example.edu/api/schedules")
        #expect(sent.header("Accept") == "application/json")
    }

    @Test("HTTP 500 is an api_error, retryable, exit code 7 (the reference app's failing session)")
    func serverError() async throws {
        let (client, transport) = try client([.json(["error": "schedule service down"], status: 500)])
        let error = try #require(await expectAPIError(.apiError) { try await client.timetable() })
        #expect(error.httpStatus == 500)
        #expect(error.exitCode == 7)
        #expect(error.isRetryable)
        #expect(error.message == "schedule service down")
        // 500 is not in the default retry statuses, so one attempt only.
        #expect(transport.requests.count == 1)
    }

    @Test("A malformed success keeps the status and request id and names the key path")
    func malformedResponse() async throws {
        let broken = Fixtures.sampleReplacing("2020-03-13T10:00:00", with: "soon")
        let (client, _) = try client([.respond(status: 200, headers: [.xRequestID: "req-42"], body: broken)])
        let error = try #require(await expectAPIError(.apiError) { try await client.timetable() })
        #expect(error.httpStatus == 200)
        #expect(error.requestID == "req-42")
        #expect(error.message.contains("`schedules[0].start_time`"))
        #expect(!error.isRetryable)
    }

    @Test("The time zone is the client's")
    func clientTimeZone() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport([.respond(status: 200, headers: [:], body: Fixtures.sample)], clock: clock)
        let utc = try #require(TimeZone(identifier: "UTC"))
        let client = try ScheduleClient(baseURL: Self.baseURL, timeZone: utc, transport: transport)
        let week = try await client.timetable()
        #expect(week.classes.first?.start == (try Fixtures.instant("2020-03-13T10:00:00Z")))
    }

    @Test("There is no default host: plain http to a remote host is refused")
    func baseURLPolicy() async throws {
        let insecure = try #require(URL(string: "http://schedule.example.edu"))
        await expectAPIError(.usage) { try ScheduleClient(baseURL: insecure) }
    }
}

@Suite("ScheduleClient against the loopback sandbox")
struct SandboxTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    func withSandbox(_ body: (Sandbox, URL) async throws -> Void) async throws {
        try await Sandbox.withRunning(configuration: SandboxConfiguration(modules: [MonashSandboxModule()])) {
            sandbox in
            try await body(sandbox, sandbox.baseURL.appending(path: MonashSandboxModule.defaultBasePath))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The sandbox serves the sample week by default and the larger week on request")
    func weeks() async throws {
        try await withSandbox { sandbox, baseURL in
            let sample = try await ScheduleClient(baseURL: baseURL).timetable()
            #expect(sample == (try Timetable.decode(from: Fixtures.sample)))

            var configuration = ClientConfiguration(baseURL: baseURL)
            configuration.defaultHeaders[try #require(HTTPField.Name("X-Sandbox-Week"))] = "large"
            let large = try await ScheduleClient(configuration: configuration).timetable()
            #expect(large == (try Timetable.decode(from: Fixtures.large)))
            #expect(sandbox.counters().requestsByPath["/monash/schedules"] == 2)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The served bytes are the Spec's, and the query picks the week too")
    func bytes() async throws {
        try await withSandbox { _, baseURL in
            let client = try Client(configuration: ClientConfiguration(baseURL: baseURL))
            let large = try await client.response(Endpoint<Data>(.get, "schedules", query: ["week": "large"]))
            #expect(large.body == Fixtures.large)
            #expect(large.requestID?.hasPrefix("monash-") == true)
            let sample = try await client.send(Endpoint<Data>(.get, "schedules", query: ["week": "sample"]))
            #expect(sample == Fixtures.sample)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("An unknown week choice is a 400, a validation error")
    func unknownWeek() async throws {
        try await withSandbox { _, baseURL in
            let client = try Client(configuration: ClientConfiguration(baseURL: baseURL))
            let error = try #require(
                await expectAPIError(.validation) {
                    try await client.send(Endpoint<Data>(.get, "schedules", query: ["week": "huge"]))
                }
            )
            #expect(error.message.contains("huge"))
        }
    }
}
