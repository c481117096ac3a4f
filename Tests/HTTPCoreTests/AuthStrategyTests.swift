import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

@Suite("Auth: static strategies")
struct AuthStrategyTests {
    @Test("BearerTokenAuth sets Authorization: Bearer on every attempt")
    func bearer() async throws {
        let transport = ScriptedTransport([.status(503), .json(["ok": true])])
        let client = try makeClient(transport) { $0.auth = BearerTokenAuth(token: "tok-123") }
        _ = try await client.send(Endpoint<JSONValue>(.get, "me"))
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer tok-123", "Bearer tok-123"])
    }

    @Test("A 401 with a static token is delivered as auth_required after one request")
    func bearerUnauthorized() async throws {
        let transport = ScriptedTransport([.status(401), .json([:])])
        let client = try makeClient(transport) { $0.auth = BearerTokenAuth(token: "tok-123") }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "me")) }
        #expect(error?.code == .authRequired)
        #expect(error?.exitCode == 3)
        #expect(transport.requests.count == 1)
    }

    @Test("BasicAuth sends base64(username:password)")
    func basic() async throws {
        let transport = ScriptedTransport([.json([:])])
        let client = try makeClient(transport) { $0.auth = BasicAuth(username: "Aladdin", password: "open sesame") }
        _ = try await client.send(Endpoint<JSONValue>(.get, "me"))
        #expect(transport.requests.first?.header("Authorization") == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
    }

    @Test("APIKeyAuth in a header: sent, and redacted in hook payloads")
    func apiKeyHeader() async throws {
        let transport = ScriptedTransport([.json([:])])
        let recorder = AuthHookRecorder()
        let client = try makeClient(transport) {
            $0.auth = APIKeyAuth(name: "X-API-Key", value: "key-abc")
            $0.hooks = recorder
        }
        _ = try await client.send(Endpoint<JSONValue>(.get, "me"))
        #expect(transport.requests.first?.header("X-API-Key") == "key-abc")
        #expect(recorder.requestStarts.first?.headers[header("X-API-Key")] == Redactor.placeholder)
    }

    @Test("APIKeyAuth in the query: replaces a same-named parameter, and is redacted in hook URLs")
    func apiKeyQuery() async throws {
        let transport = ScriptedTransport([.json([:])])
        let recorder = AuthHookRecorder()
        let client = try makeClient(transport) {
            $0.auth = APIKeyAuth(name: "api_key", value: "key abc", placement: .query)
            $0.hooks = recorder
        }
        _ = try await client.send(Endpoint<JSONValue>(.get, "items", query: ["page": 2, "api_key": "stale"]))
        let sent = try #require(transport.requests.first)
        #expect(sent.queryItems.map(\.name) == ["page", "api_key"])
        #expect(sent.queryItems.last?.value == "key abc")
        #expect(sent.url.absoluteString.hasSuffix("api_key=key%20abc"))
        #expect(recorder.requestStarts.first?.url == "https://api.example.com/v1/items?page=2&api_key=[REDACTED]")
    }

    @Test("formOrQuery placement: form bodies get a field, other requests a query parameter")
    func formOrQuery() async throws {
        let transport = ScriptedTransport([.json([:]), .json([:])])
        let client = try makeClient(transport) {
            $0.auth = APIKeyAuth(name: "apikey", value: "k+1", placement: .formOrQuery)
        }
        _ = try await client.send(Endpoint<JSONValue>(.post, "post.lc", body: .form(["action": "create"])))
        _ = try await client.send(Endpoint<JSONValue>(.get, "list"))
        #expect(transport.requests[0].bodyText == "action=create&apikey=k%2B1")
        #expect(transport.requests[0].queryItems.isEmpty)
        #expect(transport.requests[1].queryItems.first { $0.name == "apikey" }?.value == "k+1")
    }

    @Test("An invalid header name fails with usage before anything is sent")
    func invalidHeaderName() async throws {
        let transport = ScriptedTransport([.json([:])])
        let client = try makeClient(transport) { $0.auth = APIKeyAuth(name: "bad name", value: "v") }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.code == .usage)
        #expect(transport.requests.isEmpty)
    }

    @Test("TokenProviderAuth replays once when the provider has a newer token after a 401")
    func tokenProviderReplay() async throws {
        let provider = SequenceTokenProvider(["t1", "t2"])
        let transport = ScriptedTransport(handler: { request in
            request.header("Authorization") == "Bearer t2"
                ? reply(request, json: ["ok": true]) : reply(request, status: 401)
        })
        let client = try makeClient(transport) { $0.auth = TokenProviderAuth(provider) }
        let value = try await client.send(Endpoint<JSONValue>(.get, "me"))
        #expect(value["ok"] == true)
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer t1", "Bearer t2"])
    }

    @Test("TokenProviderAuth delivers the 401 when the provider's token is the one rejected")
    func tokenProviderSameToken() async throws {
        let provider = SequenceTokenProvider(["t1"])
        let transport = ScriptedTransport(handler: { reply($0, status: 401) })
        let client = try makeClient(transport) { $0.auth = TokenProviderAuth(provider) }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "me")) }
        #expect(error?.code == .authRequired)
        #expect(transport.requests.count == 1)
    }

    @Test("A failing TokenProvider becomes auth_required without its error text")
    func tokenProviderFailure() async throws {
        struct KeychainError: Error, CustomStringConvertible {
            var description: String { "keychain item tok-leaked not readable" }
        }
        struct Failing: TokenProvider {
            func currentToken() async throws -> String { throw KeychainError() }
        }
        let transport = ScriptedTransport([.json([:])])
        let client = try makeClient(transport) { $0.auth = TokenProviderAuth(Failing()) }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "me")) }
        #expect(error?.code == .authRequired)
        #expect(error.map { "\($0)".contains("tok-leaked") } == false)
        #expect(transport.requests.isEmpty)
    }

    @Test("Strategies and credentials print no secret")
    func descriptions() {
        let printed = [
            String(describing: BearerTokenAuth(token: "s3cret")),
            String(describing: BasicAuth(username: "u", password: "s3cret")),
            String(describing: APIKeyAuth(name: "k", value: "s3cret")),
            String(describing: TokenCredentials(accessToken: "s3cret", refreshToken: "s3cret")),
            String(reflecting: TokenCredentials(accessToken: "s3cret", refreshToken: "s3cret")),
            dumped(TokenCredentials(accessToken: "s3cret", refreshToken: "s3cret")),
            dumped(BearerTokenAuth(token: "s3cret")),
            dumped(SessionLoginAuth.Session(["sessiontoken": "s3cret"])),
        ]
        for text in printed {
            #expect(!text.contains("s3cret"), "\(text)")
        }
    }
}

// MARK: - Helpers shared by the Auth*Tests files

/// A response to a recorded request.
func reply(_ request: ScriptedTransport.RecordedRequest, status: Int = 200, json: JSONValue = [:]) -> TransportResponse
{
    TransportResponse(
        response: HTTPResponse(status: .init(code: status), headerFields: [.contentType: "application/json"]),
        body: json.encoded(),
        url: request.url
    )
}

/// Everything `dump` prints for `value`: every stored property, however deep.
func dumped(_ value: Any) -> String {
    var text = ""
    dump(value, to: &text)
    return text
}

/// Hands out tokens in order, repeating the last.
final class SequenceTokenProvider: TokenProvider {
    private let tokens: Locked<[String]>

    init(_ tokens: [String]) {
        self.tokens = Locked(tokens)
    }

    func currentToken() async throws -> String {
        tokens.withLock { tokens in
            tokens.count > 1 ? tokens.removeFirst() : (tokens.first ?? "")
        }
    }
}

/// Hooks that keep every event, auth events included, and a dump of each for secret scans.
final class AuthHookRecorder: Hooks {
    private struct Storage: Sendable {
        var requestStarts: [RequestStartEvent] = []
        var authEvents: [AuthEvent] = []
        var dumps: [String] = []
    }

    private let storage = Locked(Storage())

    var requestStarts: [RequestStartEvent] { storage.withLock { $0.requestStarts } }
    var authEvents: [AuthEvent] { storage.withLock { $0.authEvents } }
    var dumps: [String] { storage.withLock { $0.dumps } }

    private func record(_ event: some Sendable) {
        let text = dumped(event)
        storage.withLock { $0.dumps.append(text) }
    }

    func operationStarted(_ event: OperationStartEvent) { record(event) }
    func operationEnded(_ event: OperationEndEvent) { record(event) }
    func requestEnded(_ event: RequestEndEvent) { record(event) }
    func retryScheduled(_ event: RetryEvent) { record(event) }

    func requestStarted(_ event: RequestStartEvent) {
        record(event)
        storage.withLock { $0.requestStarts.append(event) }
    }

    func auth(_ event: AuthEvent) {
        record(event)
        storage.withLock { $0.authEvents.append(event) }
    }
}

/// A one-shot latch: tasks wait until it opens. Lets a test hold a response back without
/// sleeping.
final class Gate: Sendable {
    private struct State: Sendable {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Counts arrivals and opens its gate at the `target`-th, so all of them can be held until
/// every one has arrived.
final class Barrier: Sendable {
    private let count = Locked(0)
    private let target: Int
    let gate = Gate()

    init(_ target: Int) {
        self.target = target
    }

    /// Records an arrival and waits until `target` have arrived.
    func arriveAndWait() async {
        arrive()
        await gate.wait()
    }

    /// Records an arrival without waiting.
    func arrive() {
        let arrived = count.withLock { count -> Int in
            count += 1
            return count
        }
        if arrived >= target { gate.open() }
    }

    var arrivals: Int { count.withLock { $0 } }
}

/// A counter safe to bump from any task.
final class Counter: Sendable {
    private let count = Locked(0)

    @discardableResult
    func increment() -> Int {
        count.withLock { count -> Int in
            count += 1
            return count
        }
    }

    var value: Int { count.withLock { $0 } }
}
