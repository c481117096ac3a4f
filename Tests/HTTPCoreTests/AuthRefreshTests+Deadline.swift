import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

extension AuthRefreshTests {
    /// A client on a manual clock whose calls have a 5 s deadline, and whose refresh, once it
    /// starts, opens `started` and waits for `hold`.
    struct HeldRefreshClient {
        var client: Client
        var api: TokenAPI
        var clock: TestClock
        var transport: ScriptedTransport
        var started: Gate
        var hold: Gate
    }

    func deadlineSetUp(credentials: TokenCredentials, revoked: Bool) throws -> HeldRefreshClient {
        let (started, hold) = (Gate(), Gate())
        let api = TokenAPI(beforeRefresh: {
            started.open()
            await hold.wait()
        })
        if revoked { api.revokeAccessToken() }
        let clock = TestClock(mode: .manual)
        let auth = RefreshingTokenAuth(credentials: credentials, refresh: RefreshEndpoint(path: "oauth/token"))
        let transport = ScriptedTransport(clock: clock) { try await api.handle($0) }
        let client = try makeClient(transport) {
            $0.auth = auth
            $0.timeSource = clock
            $0.deadline = .seconds(5)
        }
        return HeldRefreshClient(
            client: client,
            api: api,
            clock: clock,
            transport: transport,
            started: started,
            hold: hold
        )
    }

    /// Waits until `count` waiting calls have set their deadline's timer; when they do not, ends
    /// the held refresh so the calls end and the test fails rather than hangs.
    static func requireDeadlineTimers(_ count: Int, _ clock: TestClock, orRelease hold: Gate) async throws {
        let timersSet = await clock.waitForSleepers(count, timeLimit: .seconds(10))
        if !timersSet { hold.open() }
        try #require(timersSet, "a call waiting for the refresh set no timer for its deadline")
    }

    @Test(
        "A call whose deadline comes while it waits for a refresh ends then, unsent; the refresh goes on",
        .timeLimit(.minutes(10)),
        arguments: [false, true]
    )
    func deadlineWhileWaitingForRefresh(startsTheRefresh: Bool) async throws {
        // The token is inside the refresh margin but still valid, so without the deadline the
        // call would fall back to it if the refresh failed.
        let soon = TokenCredentials(
            accessToken: "access-1",
            refreshToken: "refresh-1",
            expiresAt: TestClock(mode: .manual).now().addingTimeInterval(20)
        )
        let setUp = try deadlineSetUp(credentials: soon, revoked: false)
        let first = Task { try await setUp.client.send(Endpoint<JSONValue>(.get, "first")) }
        await setUp.started.wait()
        let waiting =
            startsTheRefresh ? first : Task { try await setUp.client.send(Endpoint<JSONValue>(.get, "waiting")) }
        try await Self.requireDeadlineTimers(startsTheRefresh ? 1 : 2, setUp.clock, orRelease: setUp.hold)

        setUp.clock.advance(by: .seconds(5))
        let error = try #require(await caughtAPIError { try await waiting.value })
        #expect(error.code == .network)
        #expect(error.message.contains("deadline came while the credentials were being renewed"))
        #expect(error.message.contains("the request was not sent"))
        #expect(apiRequests(setUp.transport).isEmpty)

        // The refresh was not cut short: once it ends, calls use its token without another.
        setUp.hold.open()
        if !startsTheRefresh { _ = await first.result }
        let later = try await setUp.client.send(Endpoint<JSONValue>(.get, "later"))
        #expect(later["ok"] == true)
        #expect(setUp.api.refreshes.value == 1)
        #expect(apiRequests(setUp.transport).last?.header("Authorization") == "Bearer access-2")
    }

    @Test("A call rejected with 401 whose deadline comes while the refresh runs ends then", .timeLimit(.minutes(10)))
    func deadlineWhileRecovering() async throws {
        let setUp = try deadlineSetUp(
            credentials: TokenCredentials(accessToken: "access-1", refreshToken: "refresh-1"),
            revoked: true
        )
        let call = Task { try await setUp.client.send(Endpoint<JSONValue>(.post, "items")) }
        await setUp.started.wait()
        try await Self.requireDeadlineTimers(1, setUp.clock, orRelease: setUp.hold)

        setUp.clock.advance(by: .seconds(5))
        let error = try #require(await caughtAPIError { try await call.value })
        #expect(error.code == .network)
        #expect(error.message.contains("deadline came while the credentials were being renewed"))
        // Sent once with the revoked token, never replayed.
        #expect(apiRequests(setUp.transport).map { $0.header("Authorization") } == ["Bearer access-1"])
        setUp.hold.open()
    }

    /// A store whose first load opens `started` and waits for `hold`.
    actor HeldStore: CredentialStore {
        let started = Gate()
        let hold = Gate()
        func load() async -> TokenCredentials? {
            started.open()
            await hold.wait()
            return TokenCredentials(accessToken: "stored-1", refreshToken: "stored-r")
        }
        func save(_ credentials: TokenCredentials) {}
        func remove() {}
    }

    @Test(
        "A store whose first load hangs holds no call past its deadline or its cancellation; the load goes on",
        .timeLimit(.minutes(10))
    )
    func deadlineWhileLoadingTheStore() async throws {
        let store = HeldStore()
        let clock = TestClock(mode: .manual)
        let auth = RefreshingTokenAuth(refresh: RefreshEndpoint(path: "oauth/token"), store: store)
        let transport = ScriptedTransport([.json(["ok": true])], clock: clock)
        let client = try makeClient(transport) {
            $0.auth = auth
            $0.timeSource = clock
            $0.deadline = .seconds(5)
        }
        let timed = Task { try await client.send(Endpoint<JSONValue>(.get, "timed")) }
        let cancelled = Task { try await client.send(Endpoint<JSONValue>(.get, "cancelled")) }
        await store.started.wait()
        try await Self.requireDeadlineTimers(2, clock, orRelease: store.hold)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        clock.advance(by: .seconds(5))
        let error = try #require(await caughtAPIError { try await timed.value })
        #expect(error.code == .network)
        #expect(error.message.contains("deadline came while the credentials were being loaded from their store"))
        #expect(transport.requests.isEmpty)

        // The load was not cut short: once it ends, calls use what it loaded.
        store.hold.open()
        _ = try await client.send(Endpoint<JSONValue>(.get, "later"))
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer stored-1"])
    }
}
