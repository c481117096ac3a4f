import Foundation
import HTTPCoreTesting
import HTTPTypes
import Testing

@testable import HTTPCore

@Suite("Request pipeline")
struct PipelineTests {
    @Test(
        "The stages are built in the documented order: retry, download resume, auth, cache, middlewares, request hooks"
    )
    func stageOrder() throws {
        var configuration = ClientConfiguration(baseURL: try #require(URL(string: "https://api.example.com")))
        configuration.auth = BearerTokenAuth(token: "t")
        configuration.cache = ResponseCache()
        configuration.middlewares = [Probe(name: "first"), Probe(name: "second")]
        let full = Pipeline(
            configuration: configuration,
            baseURL: configuration.baseURL,
            redactor: Redactor(),
            hooks: EventRecorder(),
            transport: ScriptedTransport()
        )
        #expect(
            full.stages.map(Self.name) == [
                "RetryStage", "DownloadResumeStage", "AuthStage", "CacheStage", "first", "second", "RequestHooksStage",
            ]
        )

        configuration.auth = nil
        configuration.cache = nil
        let bare = Pipeline(
            configuration: configuration,
            baseURL: configuration.baseURL,
            redactor: Redactor(),
            hooks: nil,
            transport: ScriptedTransport()
        )
        #expect(bare.stages.map(Self.name) == ["RetryStage", "DownloadResumeStage", "first", "second"])
    }

    private static func name(_ stage: any Middleware) -> String {
        (stage as? Probe)?.name ?? String(describing: type(of: stage))
    }

    @Test("A middleware sees what retry, auth and the cache did; the request hooks see what it did")
    func stagesSeeEachOther() async throws {
        let probe = Probe(name: "probe")
        let recorder = EventRecorder()
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
        let recorder = EventRecorder()
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

    @Test("A replayed call is not replayed again, whoever asks")
    func replayOnce() async throws {
        let transport = ScriptedTransport([.status(409), .status(409), .json([:])])
        let client = try makeClient(transport) { $0.middlewares = [AlwaysReplay()] }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.httpStatus == 409)
        #expect(transport.requests.count == 2)
    }
}

/// Records what each attempt looked like when it reached it, and stamps the request.
private final class Probe: Middleware {
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

/// A strategy whose every 401 asks for a replay after a (counted) renewal.
private struct RenewingAuth: AuthStrategy {
    let renewals = Counter()
    var redactor: Redactor { Redactor() }

    func authorize(_ request: HTTPRequest, body: Data?, context: AuthContext) async throws -> AuthorizedRequest {
        AuthorizedRequest(request: request, body: body)
    }

    func recover(
        from response: TransportResponse,
        authorized: AuthorizedRequest,
        context: AuthContext
    ) async throws -> AuthRecovery {
        renewals.increment()
        return .replay
    }
}

/// Asks for a replay after every 409.
private struct AlwaysReplay: Middleware {
    func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        let result = try await next(request, body, context)
        guard result.response.status.code == 409 else { return result }
        throw ReplayRequest(response: result, reason: "conflict")
    }
}
