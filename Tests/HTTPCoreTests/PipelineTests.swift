import Foundation
import HTTPCoreTesting
import HTTPTypes
import Testing

@testable import HTTPCore

@Suite("Request pipeline")
struct PipelineTests {
    @Test(
        "The stages are built in the documented order: call middlewares and the operation hooks per call; retry, download resume, rate limit, auth, cache, middlewares, redirects and request hooks per attempt"
    )
    func stageOrder() throws {
        var configuration = ClientConfiguration(baseURL: try #require(URL(string: "https://api.example.com")))
        configuration.auth = BearerTokenAuth(token: "t")
        configuration.cache = ResponseCache()
        configuration.middlewares = [Probe(name: "first"), Probe(name: "second")]
        configuration.callMiddlewares = [Probe(name: "call")]
        configuration.rateLimit = RateLimiting(
            limiter: TokenBucketRateLimiter(RequestRate(1, per: .seconds(1))),
            key: "k"
        )
        let full = Pipeline(
            configuration: configuration,
            baseURL: configuration.baseURL,
            redactor: Redactor(),
            hooks: HookRecorder(),
            transport: ScriptedTransport()
        )
        #expect(full.callStages.map(Self.name) == ["call", "OperationReportStage"])
        #expect(
            full.stages.map(Self.name) == [
                "RetryStage", "DownloadResumeStage", "RateLimitStage", "AuthStage", "CacheStage", "first", "second",
                "RedirectStage", "RequestHooksStage",
            ]
        )

        configuration.auth = nil
        configuration.cache = nil
        configuration.callMiddlewares = []
        configuration.rateLimit = nil
        #expect(ClientConfiguration(baseURL: configuration.baseURL).rateLimit == nil, "off by default")
        let bare = Pipeline(
            configuration: configuration,
            baseURL: configuration.baseURL,
            redactor: Redactor(),
            hooks: nil,
            transport: ScriptedTransport()
        )
        #expect(bare.callStages.isEmpty)
        #expect(
            bare.stages.map(Self.name) == ["RetryStage", "DownloadResumeStage", "first", "second", "RedirectStage"]
        )
    }

    private static func name(_ stage: any Middleware) -> String {
        (stage as? Probe)?.name ?? String(describing: type(of: stage))
    }

    @Test("A middleware sees what retry, auth and the cache did; the request hooks see what it did")
    func stagesSeeEachOther() async throws {
        let probe = Probe(name: "probe")
        let recorder = HookRecorder()
        let transport = ScriptedTransport([
            .status(503),
            .json(["ok": true], headers: [.eTag: "\"v1\""]),
            .status(304, headers: [.eTag: "\"v1\""]),
        ])
        let client = try makeClient(transport) {
            $0.auth = BearerTokenAuth(token: "t-1")
            $0.cache = ResponseCache()
            $0.middlewares = [probe]
            $0.hooks = recorder
        }
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        let second = try await client.response(Endpoint<JSONValue>(.get, "x"))
        #expect(second.fromCache)

        let seen = probe.seen
        #expect(seen.map(\.attempt) == [1, 2, 1])
        #expect(seen.map(\.authorization) == ["Bearer t-1", "Bearer t-1", "Bearer t-1"])
        #expect(seen.map(\.ifNoneMatch) == [nil, nil, "\"v1\""])
        #expect(seen.map(\.isCacheRevalidation) == [false, false, true])
        #expect(recorder.events.requestStarts.map { $0.headers[Probe.stamp] } == ["probe", "probe", "probe"])
        #expect(transport.requests.map { $0.header("X-Probe") } == ["probe", "probe", "probe"])
        #expect(recorder.events.requestEnds.map(\.fromCache) == [false, false, true])
        #expect(recorder.events.operationEnds.map(\.attempts) == [2, 1])
    }

    // Until this change a retry after the replay asked the strategy to renew again, although the
    // protocol promises `recover` at most once per call.
    @Test("Auth renews at most once per call: a 401 after the replay and a retry is delivered")
    func oneRenewalPerCall() async throws {
        let strategy = RenewingAuth()
        let recorder = HookRecorder()
        let transport = ScriptedTransport([.status(401), .status(503), .status(401)])
        let client = try makeClient(transport) {
            $0.auth = strategy
            $0.hooks = recorder
        }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.code == .authRequired)
        #expect(strategy.renewals.value == 1)
        #expect(transport.requests.count == 3)
        #expect(recorder.events.requestStarts.map(\.attempt) == [1, 2, 3])
        #expect(recorder.events.operationEnds.first?.attempts == 3)
    }

    @Test("A replay is asked for with the answer, once per call, and the answer never leaves retry asking")
    func replayOnce() async throws {
        let transport = ScriptedTransport([.status(409), .status(409), .json([:])])
        let outside = AnswerProbe()
        let client = try makeClient(transport) {
            $0.middlewares = [alwaysReplay]
            $0.callMiddlewares = [outside]
        }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.httpStatus == 409)
        #expect(transport.requests.count == 2)
        #expect(outside.errors.map(\.httpStatus) == [409])
        #expect(outside.attempts == [2])

        let once = ScriptedTransport([.status(409), .json(["ok": true])])
        let replayed = try makeClient(once) {
            $0.middlewares = [alwaysReplay]
            $0.callMiddlewares = [outside]
        }
        _ = try await replayed.send(Endpoint<JSONValue>(.get, "x"))
        #expect(outside.answers.map(\.status) == [200])
        #expect(outside.answers.map(\.askedForReplay) == [false])
        #expect(outside.attempts == [2, 2])
    }

    @Test("A call middleware sees the call's attempts and the error it ends with, a decoding failure included")
    func callMiddlewareSeesTheOutcome() async throws {
        let transport = ScriptedTransport([.status(503), .status(200, body: "not json")])
        let outside = AnswerProbe()
        let recorder = HookRecorder()
        let client = try makeClient(transport) {
            $0.callMiddlewares = [outside]
            $0.hooks = recorder
            $0.retry = RetryPolicy(jitter: .none)
        }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.code == .apiError)
        #expect(outside.errors.map(\.code) == [.apiError])
        #expect(outside.errors.first?.message == error?.message)
        #expect(outside.attempts == [2])
        #expect(recorder.events.operationEnds.map(\.attempts) == [2])
        #expect(recorder.events.operationEnds.first?.error?.message == error?.message)
    }

    @Test("Request hooks time each request on the client's clock")
    func requestDurationsUseTheTimeSource() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport { request in
            clock.advance(by: .milliseconds(250))
            return TransportResponse(response: HTTPResponse(status: .ok), body: Data("{}".utf8), url: request.url)
        }
        let recorder = HookRecorder()
        var configuration = ClientConfiguration(
            baseURL: try #require(URL(string: "https://api.example.com")),
            hooks: recorder,
            timeSource: clock
        )
        configuration.retry = .none
        let client = try Client(configuration: configuration, transport: transport)
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        #expect(recorder.events.requestEnds.map(\.duration) == [.milliseconds(250)])
        #expect(recorder.events.operationEnds.map(\.duration) == [.milliseconds(250)])
    }
}

/// Records what each attempt looked like when it reached it, and stamps the request.
final class Probe: Middleware {
    struct Seen: Sendable {
        var attempt: Int
        var authorization: String?
        var ifNoneMatch: String?
        var isCacheRevalidation: Bool
    }

    static let stamp = HTTPField.Name("X-Probe") ?? .accept
    let name: String
    private let log = Locked<[Seen]>([])

    init(name: String) {
        self.name = name
    }

    var seen: [Seen] { log.withLock { $0 } }

    func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        let seen = Seen(
            attempt: context.attempt,
            authorization: request.headerFields[.authorization],
            ifNoneMatch: request.headerFields[.ifNoneMatch],
            isCacheRevalidation: context.isCacheRevalidation
        )
        log.withLock { $0.append(seen) }
        var request = request
        request.headerFields[Self.stamp] = name
        return try await next(request, body, context)
    }
}

/// Asks for a replay after every 409, even after the call's one replay.
private let alwaysReplay = ClosureMiddleware { request, body, context, next in
    var result = try await next(request, body, context)
    if result.response.status.code == 409 { result.replay = ReplayRequest(reason: "conflict") }
    return result
}

/// A call middleware that records each call's outcome as it saw it.
private final class AnswerProbe: Middleware {
    struct Answer: Sendable {
        var status: Int
        var askedForReplay: Bool
    }

    private let log = Locked<(answers: [Answer], errors: [APIError], attempts: [Int])>(([], [], []))

    var answers: [Answer] { log.withLock { $0.answers } }
    var errors: [APIError] { log.withLock { $0.errors } }
    var attempts: [Int] { log.withLock { $0.attempts } }

    func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        do {
            let result = try await next(request, body, context)
            let answer = Answer(status: result.response.status.code, askedForReplay: result.replay != nil)
            log.withLock {
                $0.answers.append(answer)
                $0.attempts.append(context.attemptsMade)
            }
            return result
        } catch let error as APIError {
            log.withLock {
                $0.errors.append(error)
                $0.attempts.append(context.attemptsMade)
            }
            throw error
        }
    }
}
