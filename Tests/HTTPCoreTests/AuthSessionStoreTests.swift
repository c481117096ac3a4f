import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

/// Session logins shared through a credential store, as workers in several processes share
/// one (each strategy here stands for one process).
@Suite("Auth: session logins shared through a store")
struct AuthSessionStoreTests {
    private func worker(_ api: SessionAPI, _ store: any CredentialStore, _ clock: TestClock) throws -> Client {
        let transport = ScriptedTransport(clock: clock) { try await api.handle($0) }
        return try makeClient(transport) {
            $0.auth = SessionAPI.strategy(store: store)
            $0.timeSource = clock
        }
    }

    private func session(_ client: Client) async throws -> Int? {
        try await client.send(Endpoint<JSONValue>(.get, "", query: ["action": "markbooklist"]))["session"]?.intValue
    }

    @Test("A second worker uses the session the first stored: one login for both")
    func secondWorkerAdopts() async throws {
        let api = SessionAPI()
        let store = InMemoryCredentialStore()
        let clock = TestClock()
        #expect(try await session(worker(api, store, clock)) == 1)
        #expect(try await session(worker(api, store, clock)) == 1)
        #expect(api.logins.value == 1)
        let stored = try #require(await store.load())
        #expect(stored.tokenType == "session")
        #expect(stored.expiresAt == clock.now().addingTimeInterval(20 * 60))
        #expect(!"\(stored)".contains("st-1"))
    }

    @Test("A stored session whose expiry is corrupt is no session: the worker logs in, nothing traps")
    func corruptStoredExpiry() async throws {
        let api = SessionAPI()
        let corrupt = TokenCredentials(
            accessToken: #"[["sessiontoken","st-9"]]"#,
            expiresAt: Date(timeIntervalSince1970: 1e300),
            tokenType: "session"
        )
        let store = InMemoryCredentialStore(corrupt)
        #expect(try await session(worker(api, store, TestClock())) == 1)
        #expect(api.logins.value == 1)
        #expect(await store.load()?.accessToken != corrupt.accessToken)
    }

    @Test("A stored session due for renewal is replaced once; the other worker adopts the new one")
    func dueSessionRenewedOnce() async throws {
        let api = SessionAPI()
        let store = InMemoryCredentialStore()
        let clock = TestClock()
        let first = try worker(api, store, clock)
        #expect(try await session(first) == 1)
        clock.advance(by: .seconds(19 * 60))
        #expect(try await session(worker(api, store, clock)) == 2)
        #expect(try await session(first) == 2)
        #expect(api.logins.value == 2)
    }

    @Test("A shared session the server rejects is not adopted again: the worker logs in")
    func rejectedSessionNotAdopted() async throws {
        let api = SessionAPI()
        let store = InMemoryCredentialStore()
        let clock = TestClock()
        let first = try worker(api, store, clock)
        let second = try worker(api, store, clock)
        #expect(try await session(first) == 1)
        #expect(try await session(second) == 1)
        api.expireSession()
        #expect(try await session(first) == 2)
        #expect(try await session(second) == 2)
        #expect(api.logins.value == 2)
    }

    @Test("Stored token credentials are not mistaken for a session")
    func otherCredentialsIgnored() async throws {
        let api = SessionAPI()
        let store = InMemoryCredentialStore(TokenCredentials(accessToken: "[[\"sessiontoken\",\"x\"]]"))
        #expect(try await session(worker(api, store, TestClock())) == 1)
        #expect(api.logins.value == 1)
    }
}
