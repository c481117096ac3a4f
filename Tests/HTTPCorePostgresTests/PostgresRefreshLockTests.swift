import Foundation
import HTTPCore
import HTTPCoreTesting
import PostgresTesting
import Testing

@testable import HTTPCorePostgres

/// The fleet-wide refresh lock, on two pools as two processes would hold it.
@Suite("Postgres: the refresh lock", PostgresTestServer.trait, .timeLimit(.minutes(2)))
struct PostgresRefreshLockTests {
    private func stores(
        _ pools: [PostgresDatabase],
        lockTimeout: Duration = .seconds(10)
    )
        -> [PostgresCredentialStore]
    {
        let identity = PostgresTestServer.uniqueKey("lock")
        return pools.map {
            PostgresCredentialStore(database: $0, integration: "tests", identity: identity, lockTimeout: lockTimeout)
        }
    }

    /// Runs `body` while `store` holds its lock in another task, then lets it go.
    private func whileHeld(by store: PostgresCredentialStore, _ body: () async throws -> Void) async throws {
        let held = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await store.withRefreshLock {
                held.continuation.yield()
                for await _ in release.stream { break }
            }
        }
        for await _ in held.stream { break }
        do {
            try await body()
        } catch {
            release.continuation.yield()
            try? await holder.value
            throw error
        }
        release.continuation.yield()
        try await holder.value
    }

    @Test("While one worker holds the lock, another waits, then sees what the first saved")
    func excludes() async throws {
        try await PostgresTestServer.withDatabases(2) { pools in
            let stores = stores(pools)
            let held = AsyncStream<Void>.makeStream()
            let release = AsyncStream<Void>.makeStream()
            let released = Locked(false)
            let holder = Task {
                try await stores[0].withRefreshLock {
                    held.continuation.yield()
                    for await _ in release.stream { break }
                    try await stores[0].save(TokenCredentials(accessToken: "saved-inside"))
                }
            }
            for await _ in held.stream { break }
            let waiter = Task {
                try await stores[1].withRefreshLock {
                    (enteredAfterRelease: released.withLock { $0 }, seen: await stores[1].load()?.accessToken)
                }
            }
            // Time for the waiter to block on the lock; without it, it would get in meanwhile.
            try await Task.sleep(for: .milliseconds(150))
            released.withLock { $0 = true }
            release.continuation.yield()
            try await holder.value
            let outcome = try await waiter.value
            #expect(outcome.enteredAfterRelease)
            #expect(outcome.seen == "saved-inside")
        }
    }

    @Test("A lock held longer than lockTimeout ends the wait with a network error")
    func timeout() async throws {
        try await PostgresTestServer.withDatabases(2) { pools in
            let stores = stores(pools, lockTimeout: .milliseconds(200))
            try await whileHeld(by: stores[0]) {
                let error = await caughtAPIError { try await stores[1].withRefreshLock {} }
                #expect(error?.code == .network)
                #expect(error?.message.contains("Another worker") == true)
            }
            try await stores[1].withRefreshLock {}
        }
    }

    @Test("A body that throws releases the lock, and what it saved stays saved")
    func throwingBody() async throws {
        struct Refused: Error {}
        try await PostgresTestServer.withDatabases(2) { pools in
            let stores = stores(pools, lockTimeout: .seconds(2))
            await #expect(throws: Refused.self) {
                try await stores[0].withRefreshLock {
                    try await stores[0].save(TokenCredentials(accessToken: "rotated"))
                    throw Refused()
                }
            }
            let seen = try await stores[1].withRefreshLock { await stores[1].load()?.accessToken }
            #expect(seen == "rotated")
        }
    }

    @Test("A save whose commit is lost to a dropped connection is made again, so a rotated token survives")
    func commitLost() async throws {
        try await PostgresTestServer.withDatabases(2) { pools in
            let stores = stores(pools, lockTimeout: .seconds(5))
            try await stores[1].save(TokenCredentials(accessToken: "old", refreshToken: "revoked-by-the-provider"))
            let rotated = TokenCredentials(accessToken: "new", refreshToken: "rotated")
            try await stores[0].withRefreshLock {
                try await stores[0].save(rotated)
                // The lock's session dies between the save and the commit.
                try await endLockSession(stores[0], from: pools[1])
            }
            #expect(await stores[1].load() == rotated)
            // Saved and then removed under the lock: nothing is saved again, and the lost commit
            // is the lock's error.
            await #expect(throws: APIError.self) {
                try await stores[0].withRefreshLock {
                    try await stores[0].save(TokenCredentials(accessToken: "newer", refreshToken: "spent"))
                    try await stores[0].remove()
                    try await endLockSession(stores[0], from: pools[1])
                }
            }
            #expect(await stores[1].load()?.accessToken != "newer")
        }
    }

    /// Ends the session of the refresh lock `store` holds in this task, from another pool, as a
    /// server restart or a dropped connection would.
    private func endLockSession(_ store: PostgresCredentialStore, from pool: PostgresDatabase) async throws {
        let lock = try #require(RefreshLock.connection(for: store.lockName))
        let pid = try await lock.query("SELECT pg_backend_pid()", logger: PostgresDatabase.quiet)
            .collect().first?.decode(Int32.self)
        let backend = try #require(pid)
        try await pool.withConnection("end the lock's session") { other in
            try await other.run("SELECT pg_terminate_backend(\(backend))", logger: PostgresDatabase.quiet)
        }
    }

    @Test("A worker cancelled while waiting stops waiting at once")
    func cancelledWhileWaiting() async throws {
        try await PostgresTestServer.withDatabases(2) { pools in
            // Far apart, so a busy machine's stalls cannot make a cancelled wait look like a lock
            // timeout, nor the reverse.
            let stores = stores(pools, lockTimeout: .seconds(60))
            try await whileHeld(by: stores[0]) {
                let started = ContinuousClock.now
                let waiter = Task { try await stores[1].withRefreshLock { "entered" } }
                try await Task.sleep(for: .milliseconds(100))
                waiter.cancel()
                let outcome = await waiter.result
                #expect((try? outcome.get()) == nil)
                #expect(ContinuousClock.now - started < .seconds(30))
            }
            // The pool still works after the cancelled wait closed its connection.
            #expect(try await stores[1].withRefreshLock { "entered" } == "entered")
        }
    }

    @Test("A pool of one connection refreshes inside the lock without deadlocking")
    func singleConnectionPool() async throws {
        try await PostgresTestServer.withDatabases(1, maximumConnections: 1) { pools in
            let store = stores(pools)[0]
            let value = try await store.withRefreshLock {
                try await store.save(TokenCredentials(accessToken: "one"))
                return await store.load()?.accessToken
            }
            #expect(value == "one")
        }
    }
}
