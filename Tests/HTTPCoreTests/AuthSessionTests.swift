import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

/// A fake session API in the Markbook style: `POST /v1/authenticate.lc` with a form body opens
/// session `N` (token `st-N`, key `N`); other requests must carry the current session's values
/// as query parameters, or get a 200 body with `"status": "ERROR:invalid session"`.
final class SessionAPI: Sendable {
    private let current = Locked(0)
    /// Login requests received.
    let logins = Counter()
    /// Whether logins are refused.
    let refuseLogin = Locked(false)
    /// Called before each login is answered.
    let beforeLogin: @Sendable () async -> Void

    init(beforeLogin: @escaping @Sendable () async -> Void = {}) {
        self.beforeLogin = beforeLogin
    }

    /// Ends the current session server-side.
    func expireSession() {
        current.withLock { $0 = -1 }
    }

    func handle(_ request: ScriptedTransport.RecordedRequest) async throws -> TransportResponse {
        if request.url.path.hasSuffix("/authenticate.lc") {
            let number = logins.increment()
            await beforeLogin()
            guard request.bodyText == "apiuser=teacher&apipassword=pw-Secret1", !refuseLogin.withLock({ $0 }) else {
                return reply(request, json: ["status": "ERROR:invalid credentials"])
            }
            current.withLock { $0 = number }
            return reply(
                request,
                json: ["status": "OKAY", "sessiontoken": .string("st-\(number)"), "sessionkey": .integer(number)]
            )
        }
        let items = Dictionary(request.queryItems.map { ($0.name, $0.value ?? "") }) { first, _ in first }
        let session = current.withLock { $0 }
        guard items["sessiontoken"] == "st-\(session)", items["sessionkey"] == "\(session)",
            items["apikey"] == "ak-Secret2"
        else { return reply(request, json: ["status": "ERROR:invalid session"]) }
        return reply(request, json: ["status": "OKAY", "session": .integer(session)])
    }

    /// A strategy that logs in to this API the way a Markbook SDK would.
    static func strategy(
        placement: CredentialPlacement = .query,
        lifetime: Duration = .seconds(20 * 60),
        renewalMargin: Duration = .seconds(60),
        store: (any CredentialStore)? = nil
    ) -> SessionLoginAuth {
        let invalidSession = AuthFailureSignal { response in
            (try? JSONValue(parsing: response.body))?["status"]?.stringValue == "ERROR:invalid session"
        }
        return SessionLoginAuth(
            valueNames: ["sessiontoken", "sessionkey", "apikey"],
            secretNames: ["apipassword"],
            placement: placement,
            lifetime: lifetime,
            renewalMargin: renewalMargin,
            authFailure: .unauthorized.or(invalidSession),
            store: store
        ) { context in
            let response = try await context.send(
                .post,
                "authenticate.lc",
                body: .form(["apiuser": "teacher", "apipassword": "pw-Secret1"])
            )
            let body = try JSONValue(parsing: response.body)
            guard body["status"]?.stringValue == "OKAY", let token = body["sessiontoken"]?.stringValue,
                let key = body["sessionkey"]?.intValue
            else {
                throw APIError.authRequired(
                    APIError.Details(message: "The login was refused.", rawStatus: body["status"]?.stringValue)
                )
            }
            return SessionLoginAuth.Session(["sessiontoken": token, "sessionkey": String(key), "apikey": "ak-Secret2"])
        }
    }
}

@Suite("Auth: session login")
struct AuthSessionTests {
    private func setUp(
        _ api: SessionAPI,
        auth: SessionLoginAuth = SessionAPI.strategy(),
        clock: TestClock = TestClock(),
        hooks: (any Hooks)? = nil
    ) throws -> (Client, ScriptedTransport) {
        let transport = ScriptedTransport(clock: clock) { try await api.handle($0) }
        let client = try makeClient(transport) {
            $0.auth = auth
            $0.timeSource = clock
            if let hooks { $0.hooks = hooks }
        }
        return (client, transport)
    }

    private func session(of value: JSONValue) -> Int? { value["session"]?.intValue }

    @Test("The first request logs in and carries the session values as query parameters")
    func loginOnFirstUse() async throws {
        let api = SessionAPI()
        let recorder = AuthHookRecorder()
        let (client, transport) = try setUp(api, hooks: recorder)
        let value = try await client.send(Endpoint<JSONValue>(.get, "", query: ["action": "markbooklist"]))
        #expect(session(of: value) == 1)
        #expect(api.logins.value == 1)
        let login = transport.requests[0]
        #expect(login.request.method == .post)
        #expect(login.url.absoluteString == "https://api.example.com/v1/authenticate.lc")
        #expect(login.header("Content-Type") == "application/x-www-form-urlencoded")
        let call = transport.requests[1]
        #expect(call.queryItems.map(\.name) == ["action", "sessiontoken", "sessionkey", "apikey"])
        #expect(recorder.authEvents.map(\.kind) == [.loggedIn])
        #expect(recorder.authEvents.first?.trigger == .initial)
        #expect(
            recorder.requestStarts.first?.url
                == "https://api.example.com/v1?action=markbooklist&sessiontoken=[REDACTED]&sessionkey=[REDACTED]&apikey=[REDACTED]"
        )
    }

    @Test("The session is renewed once it is lifetime minus margin old (19 of 20 minutes), not before")
    func renewalAfterLifetimeMinusMargin() async throws {
        let clock = TestClock()
        let api = SessionAPI()
        let recorder = AuthHookRecorder()
        let (client, _) = try setUp(api, clock: clock, hooks: recorder)

        #expect(session(of: try await client.send(Endpoint<JSONValue>(.get, "x"))) == 1)
        clock.advance(by: .seconds(19 * 60 - 1))
        #expect(session(of: try await client.send(Endpoint<JSONValue>(.get, "x"))) == 1)
        #expect(api.logins.value == 1)

        clock.advance(by: .seconds(1))
        #expect(session(of: try await client.send(Endpoint<JSONValue>(.get, "x"))) == 2)
        #expect(api.logins.value == 2)
        #expect(recorder.authEvents.map(\.kind) == [.loggedIn, .renewed])
        #expect(recorder.authEvents.last?.trigger == .expiry)
        #expect(recorder.authEvents.last?.validUntil == clock.now().addingTimeInterval(20 * 60))
    }

    @Test(
        "50 concurrent calls at the renewal moment → exactly 1 login, all on the new session",
        .timeLimit(.minutes(10))
    )
    func concurrentRenewalLogsInOnce() async throws {
        let clock = TestClock()
        let api = SessionAPI(beforeLogin: { for _ in 0..<1000 { await Task.yield() } })
        let (client, transport) = try setUp(api, clock: clock)
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        clock.advance(by: .seconds(19 * 60))

        let sessions = try await withThrowingTaskGroup(of: Int?.self) { group in
            for _ in 0..<50 {
                group.addTask { try await client.send(Endpoint<JSONValue>(.get, "x"))["session"]?.intValue }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(api.logins.value == 2)
        #expect(sessions.count == 50)
        #expect(sessions.allSatisfy { $0 == 2 })
        #expect(transport.requests.count == 53)  // login, call, renewal login, 50 calls
    }

    @Test("50 concurrent first calls → 1 login")
    func concurrentFirstUseLogsInOnce() async throws {
        let api = SessionAPI(beforeLogin: { for _ in 0..<1000 { await Task.yield() } })
        let (client, _) = try setUp(api)
        try await sendConcurrently(50, "x", through: client)
        #expect(api.logins.value == 1)
    }

    @Test("An invalid-session signal in a 200 body logs in again once and replays")
    func reloginOnInvalidSession() async throws {
        let api = SessionAPI()
        let recorder = AuthHookRecorder()
        let (client, transport) = try setUp(api, hooks: recorder)
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        api.expireSession()

        let value = try await client.send(Endpoint<JSONValue>(.get, "x"))
        #expect(session(of: value) == 2)
        #expect(api.logins.value == 2)
        #expect(transport.requests.count == 5)  // login, call, rejected call, login, replay
        #expect(recorder.authEvents.map(\.trigger) == [.initial, .rejected])
    }

    @Test("Concurrent invalid-session rejections → 1 login", .timeLimit(.minutes(10)))
    func concurrentReloginOnce() async throws {
        let barrier = Barrier(30)
        let api = SessionAPI()
        let transport = ScriptedTransport { request in
            let response = try await api.handle(request)
            if String(decoding: response.body, as: UTF8.self).contains("invalid session") {
                await barrier.arriveAndWait()
            }
            return response
        }
        let client = try makeClient(transport) { $0.auth = SessionAPI.strategy() }
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        api.expireSession()
        try await sendConcurrently(30, "x", through: client)
        #expect(api.logins.value == 2)
    }

    @Test("A refused login fails with auth_required; later calls fail fast until reset()")
    func refusedLogin() async throws {
        let api = SessionAPI()
        api.refuseLogin.withLock { $0 = true }
        let auth = SessionAPI.strategy()
        let (client, transport) = try setUp(api, auth: auth)

        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.code == .authRequired)
        #expect(error?.details.rawStatus == "ERROR:invalid credentials")
        #expect(await auth.isSignInRequired)

        let fast = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(fast?.code == .authRequired)
        #expect(api.logins.value == 1)
        #expect(transport.requests.count == 1)

        api.refuseLogin.withLock { $0 = false }
        await auth.reset()
        #expect(session(of: try await client.send(Endpoint<JSONValue>(.get, "x"))) == 2)
    }

    @Test("A login that cannot connect fails with network and does not block")
    func loginNetworkFailure() async throws {
        let failures = Counter()
        let api = SessionAPI()
        let transport = ScriptedTransport { request in
            if request.url.path.hasSuffix("/authenticate.lc"), failures.increment() <= 3 {
                throw TransportError(.cannotConnect, requestMayHaveBeenSent: false, message: "Connection refused.")
            }
            return try await api.handle(request)
        }
        let auth = SessionAPI.strategy()
        let client = try makeClient(transport) {
            $0.auth = auth
            $0.retry.maxAttempts = 2
        }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.code == .network)
        #expect(await auth.isSignInRequired == false)
        _ = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        let value = try await client.send(Endpoint<JSONValue>(.get, "x"))
        #expect(session(of: value) != nil)
    }

    @Test("Session values go into form bodies with formOrQuery placement")
    func formPlacement() async throws {
        let api = SessionAPI()
        let (client, transport) = try setUp(api, auth: SessionAPI.strategy(placement: .formOrQuery))
        // The fake API reads sessions from the query only, so it rejects the POST and the
        // replay carries the new session: the fields are replaced, never duplicated.
        _ = try? await client.send(Endpoint<JSONValue>(.post, "post.lc", body: .form(["apiaction": "createmarkbook"])))
        let posts = transport.requests.filter { $0.url.path.hasSuffix("/post.lc") }
        #expect(
            posts.map(\.bodyText) == [
                "apiaction=createmarkbook&sessiontoken=st-1&sessionkey=1&apikey=ak-Secret2",
                "apiaction=createmarkbook&sessiontoken=st-2&sessionkey=2&apikey=ak-Secret2",
            ]
        )
        #expect(posts.allSatisfy { $0.queryItems.isEmpty })
    }

    @Test("Session values as headers")
    func headerPlacement() async throws {
        let transport = ScriptedTransport { reply($0) }
        let auth = SessionLoginAuth(valueNames: ["X-Session"], placement: .header) { _ in
            SessionLoginAuth.Session(["X-Session": "sess-1"])
        }
        let client = try makeClient(transport) { $0.auth = auth }
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        #expect(transport.requests.first?.header("X-Session") == "sess-1")
        #expect(auth.redactor.secretHeaders.contains(header("X-Session")))
    }

    @Test("A login returning an undeclared value name fails with usage instead of sending it unredacted")
    func undeclaredValueName() async throws {
        let transport = ScriptedTransport { reply($0) }
        let auth = SessionLoginAuth(valueNames: ["token"]) { _ in SessionLoginAuth.Session(["tokn": "x"]) }
        let client = try makeClient(transport) { $0.auth = auth }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.code == .usage)
        #expect(transport.requests.isEmpty)
    }

    @Test("A session's own lifetime overrides the default")
    func sessionLifetimeOverride() async throws {
        let clock = TestClock()
        let logins = Counter()
        let auth = SessionLoginAuth(valueNames: ["s"], renewalMargin: .seconds(10)) { _ in
            SessionLoginAuth.Session(["s": "v\(logins.increment())"], lifetime: .seconds(60))
        }
        let transport = ScriptedTransport(clock: clock) { reply($0) }
        let client = try makeClient(transport) {
            $0.auth = auth
            $0.timeSource = clock
        }
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        clock.advance(by: .seconds(50))
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        #expect(logins.value == 2)
    }
}
