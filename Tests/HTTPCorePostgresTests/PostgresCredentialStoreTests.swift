import Foundation
import HTTPCore
import HTTPCoreTesting
import PostgresTesting
import Testing

@testable import HTTPCorePostgres

@Suite("Postgres: credential store", PostgresTestServer.trait, .timeLimit(.minutes(2)))
struct PostgresCredentialStoreTests {
    private func store(_ database: PostgresDatabase, identity: String) -> PostgresCredentialStore {
        PostgresCredentialStore(database: database, integration: "tests", identity: identity)
    }

    @Test("What is saved loads back equal, every field; other identities are apart; remove forgets")
    func roundTrip() async throws {
        try await PostgresTestServer.withDatabase { database in
            let identity = PostgresTestServer.uniqueKey("round-trip")
            let store = store(database, identity: identity)
            let credentials = TokenCredentials(
                accessToken: "a-1",
                refreshToken: "r-1",
                expiresAt: Date(timeIntervalSince1970: 1_900_000_000.25),
                tokenType: "Bearer",
                scope: "read write",
                resource: "urn:bc:account:1"
            )
            #expect(await store.load() == nil)
            try await store.save(credentials)
            #expect(await store.load() == credentials)
            #expect(await self.store(database, identity: identity + "-other").load() == nil)
            let minimal = TokenCredentials(accessToken: "a-2")
            try await store.save(minimal)
            #expect(await store.load() == minimal)
            try await store.remove()
            #expect(await store.load() == nil)
            try await store.remove()
            #expect(!"\(store)".contains("a-2"))
        }
    }

    @Test("Compare-and-delete: a stale copy cannot erase a good sign-in")
    func compareAndDelete() async throws {
        try await PostgresTestServer.withDatabase { database in
            let store = store(database, identity: PostgresTestServer.uniqueKey("cad"))
            let stale = TokenCredentials(accessToken: "a-1", refreshToken: "r-1")
            let good = TokenCredentials(accessToken: "a-2", refreshToken: "r-2")
            try await store.save(good)
            #expect(try await store.remove(ifStillMatching: stale) == false)
            #expect(try await store.remove(ifStillMatching: TokenCredentials(accessToken: "a-2")) == false)
            #expect(await store.load() == good)
            #expect(try await store.remove(ifStillMatching: good) == true)
            #expect(await store.load() == nil)
        }
    }

    @Test("A worker whose refresh is refused while another signs in again leaves the new sign-in")
    func refusedRefreshKeepsNewSignIn() async throws {
        try await PostgresTestServer.withDatabase { database in
            let store = store(database, identity: PostgresTestServer.uniqueKey("refused"))
            let newSignIn = TokenCredentials(accessToken: "signed-in-again", refreshToken: "fresh-r")
            // The server has already rotated generation 1 away, so this worker's refresh is refused.
            let server = RotatingTokenServer(beforeRefresh: { try? await store.save(newSignIn) })
            let spent = TokenCredentials(accessToken: "access-0", refreshToken: "refresh-0", expiresAt: .distantPast)
            try await store.save(spent)
            let auth = RefreshingTokenAuth(
                credentials: spent,
                refresh: RefreshEndpoint(path: "oauth/token"),
                store: store
            )
            let client = try RotatingTokenServer.client(auth, server.transport())
            let error = await caughtAPIError { _ = try await client.response(Endpoint<Data>(.get, "me")) }
            #expect(error?.code == .authRequired)
            #expect(server.refreshes == 1)
            #expect(await store.load() == newSignIn)
        }
    }

    @Test("A worker finding the token renewed by another adopts it without refreshing")
    func adoptsWithoutRefresh() async throws {
        try await PostgresTestServer.withDatabase { database in
            let store = store(database, identity: PostgresTestServer.uniqueKey("adopt"))
            let server = RotatingTokenServer()
            let renewer = RefreshingTokenAuth(
                credentials: RotatingTokenServer.expired,
                refresh: RefreshEndpoint(path: "oauth/token"),
                store: store
            )
            let stale = RefreshingTokenAuth(
                credentials: RotatingTokenServer.expired,
                refresh: RefreshEndpoint(path: "oauth/token"),
                store: store
            )
            try await store.save(RotatingTokenServer.expired)
            _ = try await RotatingTokenServer.client(renewer, server.transport()).response(Endpoint<Data>(.get, "a"))
            let transport = server.transport()
            let response = try await RotatingTokenServer.client(stale, transport).response(Endpoint<Data>(.get, "b"))
            #expect(response.status.code == 200)
            #expect(server.refreshes == 1)
            #expect(transport.requests.map(\.url.path) == ["/b"])
            #expect(await stale.credentials?.accessToken == "access-2")
        }
    }

    @Test(
        "16 workers on 4 pools find the token expired at once: exactly one refresh, all succeed",
        arguments: PostgresTestServer.isolationLevels
    )
    func sixteenWorkersOneRefresh(isolation: String) async throws {
        try await PostgresTestServer.withDatabases(4, maximumConnections: 2, isolation: isolation) { pools in
            let identity = PostgresTestServer.uniqueKey("sixteen")
            try await store(pools[0], identity: identity).save(RotatingTokenServer.expired)
            let server = RotatingTokenServer()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for worker in 0..<16 {
                    let auth = RefreshingTokenAuth(
                        refresh: RefreshEndpoint(path: "oauth/token"),
                        store: store(pools[worker % 4], identity: identity)
                    )
                    let client = try RotatingTokenServer.client(auth, server.transport())
                    group.addTask { try await client.response(Endpoint<Data>(.get, "w\(worker)")).status.code }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 16))
            #expect(server.refreshes == 1)
            #expect(await store(pools[1], identity: identity).load()?.refreshToken == "refresh-2")
        }
    }
}
