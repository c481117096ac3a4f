import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

/// A fake OAuth API on a scripted transport: `POST /v1/oauth/token` swaps a refresh token for
/// `access-N`/`refresh-N`; every other path answers 200 to the current access token and 401
/// to anything else.
final class TokenAPI: Sendable {
    private struct State: Sendable {
        var accessToken = "access-1"
        var refreshToken = "refresh-1"
        var issued = 1
    }

    private let state = Locked(State())
    /// Refresh requests received.
    let refreshes = Counter()
    /// What the next refresh answers instead of new tokens, if set.
    let refreshOverride = Locked<(@Sendable (ScriptedTransport.RecordedRequest) throws -> TransportResponse)?>(nil)
    /// Called with each API (non-refresh) request before it is answered.
    let beforeAnswer: @Sendable (ScriptedTransport.RecordedRequest, _ accepted: Bool) async -> Void
    /// Called with each refresh before it is answered.
    let beforeRefresh: @Sendable () async -> Void

    init(
        beforeAnswer: @escaping @Sendable (ScriptedTransport.RecordedRequest, _ accepted: Bool) async -> Void = {
            _,
            _ in
        },
        beforeRefresh: @escaping @Sendable () async -> Void = {}
    ) {
        self.beforeAnswer = beforeAnswer
        self.beforeRefresh = beforeRefresh
    }

    var accessToken: String { state.withLock { $0.accessToken } }

    /// Makes the server forget the current access token, as a revocation would.
    func revokeAccessToken() {
        state.withLock { $0.accessToken = "revoked-\($0.issued)" }
    }

    func handle(_ request: ScriptedTransport.RecordedRequest) async throws -> TransportResponse {
        if request.url.path.hasSuffix("/oauth/token") {
            refreshes.increment()
            await beforeRefresh()
            if let override = refreshOverride.withLock({ $0 }) { return try override(request) }
            let form = request.bodyText ?? ""
            let tokens = state.withLock { state -> (String, String)? in
                guard form.contains("refresh_token=\(state.refreshToken)") else { return nil }
                state.issued += 1
                state.accessToken = "access-\(state.issued)"
                state.refreshToken = "refresh-\(state.issued)"
                return (state.accessToken, state.refreshToken)
            }
            guard let (access, refresh) = tokens else {
                return reply(request, status: 400, json: ["error": "invalid_grant"])
            }
            return reply(
                request,
                json: ["access_token": .string(access), "refresh_token": .string(refresh), "expires_in": 3600]
            )
        }
        let accepted = request.header("Authorization") == "Bearer \(accessToken)"
        await beforeAnswer(request, accepted)
        return accepted ? reply(request, json: ["ok": true]) : reply(request, status: 401, json: ["error": "expired"])
    }
}

@Suite("Auth: refreshing tokens")
struct AuthRefreshTests {
    func setUp(
        _ api: TokenAPI,
        credentials: TokenCredentials? = TokenCredentials(accessToken: "access-1", refreshToken: "refresh-1"),
        clock: TestClock = TestClock(),
        store: (any CredentialStore)? = nil,
        hooks: (any Hooks)? = nil
    ) throws -> (Client, RefreshingTokenAuth, ScriptedTransport) {
        let auth = RefreshingTokenAuth(
            credentials: credentials,
            refresh: RefreshEndpoint(path: "oauth/token"),
            store: store
        )
        let transport = ScriptedTransport(clock: clock) { try await api.handle($0) }
        let client = try makeClient(transport) {
            $0.auth = auth
            $0.timeSource = clock
            if let hooks { $0.hooks = hooks }
        }
        return (client, auth, transport)
    }

    func apiRequests(_ transport: ScriptedTransport) -> [ScriptedTransport.RecordedRequest] {
        transport.requests.filter { !$0.url.path.hasSuffix("/oauth/token") }
    }

    @Test(
        "100 concurrent requests rejected with an expired token → exactly 1 refresh, 100 successful replays",
        .timeLimit(.minutes(10))
    )
    func concurrentRejectionsRefreshOnce() async throws {
        // Every request with the old token is held until all 100 have arrived, so all of them
        // are in flight with the old token when the first 401 starts the refresh; the refresh
        // is held until every 401 is on its way back, so the others ask for a refresh while
        // it is running.
        let barrier = Barrier(100)
        let rejected = Barrier(100)
        let api = TokenAPI(
            beforeAnswer: { _, accepted in
                if !accepted {
                    await barrier.arriveAndWait()
                    rejected.arrive()
                }
            },
            beforeRefresh: {
                await rejected.gate.wait()
                for _ in 0..<500 { await Task.yield() }
            }
        )
        api.revokeAccessToken()
        let recorder = AuthHookRecorder()
        let (client, auth, transport) = try setUp(api, hooks: recorder)

        let results = try await withThrowingTaskGroup(of: JSONValue.self) { group in
            for index in 0..<100 {
                group.addTask { try await client.send(Endpoint<JSONValue>(.get, "items/\(index)")) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(results.count == 100)
        #expect(results.allSatisfy { $0["ok"] == true })
        #expect(api.refreshes.value == 1)
        let sent = apiRequests(transport)
        #expect(sent.filter { $0.header("Authorization") == "Bearer access-1" }.count == 100)
        #expect(sent.filter { $0.header("Authorization") == "Bearer access-2" }.count == 100)
        #expect(await auth.credentials?.refreshToken == "refresh-2")
        let refresh = try #require(transport.requests.first { $0.url.path.hasSuffix("/oauth/token") })
        #expect(refresh.request.method == .post)
        #expect(refresh.bodyText == "grant_type=refresh_token&refresh_token=refresh-1")
        #expect(refresh.header("Authorization") == nil)
        #expect(recorder.authEvents.map(\.kind) == [.refreshed])
        #expect(recorder.authEvents.first?.trigger == .rejected)
    }

    @Test("100 concurrent requests with a locally expired token → 1 refresh before sending, no 401s")
    func concurrentProactiveRefreshOnce() async throws {
        let clock = TestClock()
        let api = TokenAPI(beforeRefresh: { for _ in 0..<200 { await Task.yield() } })
        api.revokeAccessToken()
        let expired = TokenCredentials(
            accessToken: "access-1",
            refreshToken: "refresh-1",
            expiresAt: clock.now().addingTimeInterval(-10)
        )
        let (client, _, transport) = try setUp(api, credentials: expired, clock: clock)

        try await sendConcurrently(100, "items", through: client)

        #expect(api.refreshes.value == 1)
        let sent = apiRequests(transport)
        #expect(sent.count == 100)
        #expect(sent.allSatisfy { $0.header("Authorization") == "Bearer access-2" })
    }

    @Test("A 401 for a request sent with the old token after a refresh → replay, no second refresh")
    func staleRejectionReplaysWithoutRefresh() async throws {
        let slow = Gate()
        let slowArrived = Gate()
        let api = TokenAPI(beforeAnswer: { request, accepted in
            if !accepted, request.url.path.hasSuffix("/slow") {
                slowArrived.open()
                await slow.wait()
            }
        })
        api.revokeAccessToken()
        let (client, _, transport) = try setUp(api)

        let slowCall = Task { try await client.send(Endpoint<JSONValue>(.get, "slow")) }
        await slowArrived.wait()
        // Meanwhile another request is rejected and refreshes the token.
        let fast = try await client.send(Endpoint<JSONValue>(.get, "fast"))
        #expect(fast["ok"] == true)
        #expect(api.refreshes.value == 1)
        // Now the slow request's 401 (for the old token) arrives.
        slow.open()
        let slowValue = try await slowCall.value
        #expect(slowValue["ok"] == true)
        #expect(api.refreshes.value == 1)
        let slowRequests = apiRequests(transport).filter { $0.url.path.hasSuffix("/slow") }
        #expect(slowRequests.map { $0.header("Authorization") } == ["Bearer access-1", "Bearer access-2"])
    }

    /// A token API whose access token is revoked and whose refresh, once it starts, opens
    /// `started` and waits for `hold`.
    static func heldRefresh() -> (api: TokenAPI, started: Gate, hold: Gate) {
        let (started, hold) = (Gate(), Gate())
        let api = TokenAPI(beforeRefresh: {
            started.open()
            await hold.wait()
        })
        api.revokeAccessToken()
        return (api, started, hold)
    }

    @Test(
        "A call cancelled while waiting for a refresh ends at once; the refresh goes on for the others",
        .timeLimit(.minutes(10))
    )
    func cancelWhileWaitingForRefresh() async throws {
        let (api, refreshStarted, hold) = Self.heldRefresh()
        let (client, _, transport) = try setUp(api)

        let first = Task { try await client.send(Endpoint<JSONValue>(.get, "first")) }
        await refreshStarted.wait()
        let waiting = Task { try await client.send(Endpoint<JSONValue>(.get, "waiting")) }
        for _ in 0..<200 { await Task.yield() }
        waiting.cancel()
        // The refresh is still held, so only a cancellable wait can end here.
        let outcome = await waiting.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(!transport.requests.contains { $0.url.path.hasSuffix("/waiting") })

        hold.open()
        let value = try await first.value
        #expect(value["ok"] == true)
        #expect(api.refreshes.value == 1)
    }

    @Test(
        "Signing out, or in anew, while a refresh runs: the refresh's tokens are not saved over it",
        .timeLimit(.minutes(10)),
        arguments: [true, false]
    )
    func replacedWhileRefreshing(signsOut: Bool) async throws {
        let (api, refreshStarted, hold) = Self.heldRefresh()
        let signedIn = TokenCredentials(accessToken: "access-1", refreshToken: "refresh-1")
        let store = InMemoryCredentialStore(signedIn)
        let (client, auth, _) = try setUp(api, credentials: signedIn, store: store)
        let call = Task { try await client.send(Endpoint<JSONValue>(.get, "x")) }
        await refreshStarted.wait()
        let anew = TokenCredentials(accessToken: "other-access", refreshToken: "other-refresh")
        if signsOut { try await auth.signOut() } else { try await auth.setCredentials(anew) }
        hold.open()
        _ = await call.result
        #expect(api.refreshes.value == 1)
        #expect(await store.load() == (signsOut ? nil : anew))
        #expect(await auth.credentials == (signsOut ? nil : anew))
    }

    @Test("A replay that is rejected again is delivered as auth_required, without a second refresh")
    func noSecondRefreshPerCall() async throws {
        let api = TokenAPI()
        let auth = RefreshingTokenAuth(
            credentials: TokenCredentials(accessToken: "access-1", refreshToken: "refresh-1"),
            refresh: RefreshEndpoint(path: "oauth/token")
        )
        let transport = ScriptedTransport { request in
            request.url.path.hasSuffix("/oauth/token") ? try await api.handle(request) : reply(request, status: 401)
        }
        let client = try makeClient(transport) { $0.auth = auth }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.code == .authRequired)
        #expect(api.refreshes.value == 1)
        #expect(transport.requests.count == 3)  // 401, refresh, replayed 401
        #expect(await auth.isSignInRequired == false)
    }

    @Test("A rejected refresh fails every waiter with auth_required; later calls fail fast until new credentials")
    func refreshRejected() async throws {
        let barrier = Barrier(20)
        let api = TokenAPI(beforeAnswer: { _, accepted in if !accepted { await barrier.arriveAndWait() } })
        api.revokeAccessToken()
        api.refreshOverride.withLock { $0 = { reply($0, status: 400, json: ["error": "invalid_grant"]) } }
        let store = InMemoryCredentialStore(TokenCredentials(accessToken: "access-1", refreshToken: "refresh-1"))
        let recorder = AuthHookRecorder()
        let (client, auth, transport) = try setUp(api, credentials: nil, store: store, hooks: recorder)

        let errors = await withTaskGroup(of: APIError?.self) { group in
            for _ in 0..<20 {
                group.addTask { await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "items")) } }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(errors.count == 20)
        #expect(errors.allSatisfy { $0?.code == .authRequired && $0?.exitCode == 3 })
        #expect(errors.first??.message.contains("invalid_grant") == true)
        #expect(api.refreshes.value == 1)
        #expect(await auth.isSignInRequired)
        #expect(await store.load() == nil)
        #expect(recorder.authEvents.map(\.kind) == [.refreshFailed])

        // Fails fast: nothing is sent.
        let before = transport.requests.count
        let fast = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "items")) }
        #expect(fast?.code == .authRequired)
        #expect(fast?.message.hasPrefix("Sign-in required") == true)
        #expect(transport.requests.count == before)
        #expect(api.refreshes.value == 1)

        // New credentials end it.
        try await auth.setCredentials(TokenCredentials(accessToken: api.accessToken, refreshToken: "refresh-1"))
        #expect(await auth.isSignInRequired == false)
        let value = try await client.send(Endpoint<JSONValue>(.get, "items"))
        #expect(value["ok"] == true)
        #expect(await store.load()?.accessToken == api.accessToken)
    }

    @Test(
        "A refresh answered 503, or with a redirect (a moved endpoint), fails the call and keeps the refresh token",
        arguments: [503, 308, 302]
    )
    func transientRefreshFailure(status: Int) async throws {
        let store = InMemoryCredentialStore()
        let api = TokenAPI()
        api.revokeAccessToken()
        api.refreshOverride.withLock { $0 = { reply($0, status: status) } }
        let (client, auth, _) = try setUp(api, store: store)
        await store.save(TokenCredentials(accessToken: "access-1", refreshToken: "refresh-1"))

        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "items")) }
        #expect(error?.code == .apiError)
        #expect(error?.isRetryable == (status == 503))
        #expect(await store.load()?.refreshToken == "refresh-1")
        #expect(await auth.isSignInRequired == false)
        #expect(await auth.credentials?.refreshToken == "refresh-1")

        api.refreshOverride.withLock { $0 = nil }
        let value = try await client.send(Endpoint<JSONValue>(.get, "items"))
        #expect(value["ok"] == true)
        #expect(api.refreshes.value == 2)
    }

    @Test("A POST rejected with 401 is replayed once after the refresh: the server did not apply it")
    func postReplayed() async throws {
        let api = TokenAPI()
        api.revokeAccessToken()
        let (client, _, transport) = try setUp(api)
        _ = try await client.send(Endpoint<JSONValue>(.post, "items", body: .json(["name": "a"])))
        let posts = apiRequests(transport)
        #expect(posts.count == 2)
        #expect(posts.allSatisfy { $0.bodyText == #"{"name":"a"}"# })
    }
}
