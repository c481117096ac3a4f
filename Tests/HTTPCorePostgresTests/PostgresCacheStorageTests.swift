import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import PostgresTesting
import Testing

@testable import HTTPCorePostgres

@Suite("Postgres: the shared ETag cache", PostgresTestServer.trait, .timeLimit(.minutes(2)))
struct PostgresCacheStorageTests {
    /// A server that versions `/items/N` by a counter the test bumps, answering 304 to a request
    /// that names the current version, and 204 to writes.
    final class Server: Sendable {
        let version = Locked(1)
        let transport: ScriptedTransport

        init() {
            let version = self.version
            transport = ScriptedTransport(clock: nil) { request in
                guard request.request.method == .get else {
                    return TransportResponse(response: HTTPResponse(status: .noContent), url: request.url)
                }
                let current = "\"v\(version.withLock { $0 })\""
                if request.header("If-None-Match") == current {
                    return TransportResponse(response: HTTPResponse(status: .notModified), url: request.url)
                }
                let filler = String(repeating: "x", count: 900)
                return TransportResponse(
                    response: HTTPResponse(status: .ok, headerFields: [.eTag: current]),
                    body: Data(#"{"path":"\#(request.url.path)","filler":"\#(filler)"}"#.utf8),
                    url: request.url
                )
            }
        }

        var conditionalRequests: [String?] { transport.requests.map { $0.header("If-None-Match") } }
    }

    /// Cache events, for checking what the cache did.
    final class Recorder: Hooks {
        let events = Locked([CacheEvent]())
        var kinds: [CacheEvent.Kind] { events.withLock { $0.map(\.kind) } }
        func cache(_ event: CacheEvent) { events.withLock { $0.append(event) } }
    }

    private static func client(
        _ storage: PostgresCacheStorage,
        _ server: Server,
        token: String = "worker-token",
        hooks: Recorder = Recorder()
    ) throws -> Client {
        var configuration = ClientConfiguration(
            baseURL: try #require(URL(string: "https://api.example.com")),
            defaultHeaders: [.authorization: "Bearer \(token)"],
            hooks: hooks,
            retry: .none,
            cache: ResponseCache(shared: storage)
        )
        configuration.retryBudget = nil
        return try Client(configuration: configuration, transport: server.transport)
    }

    private static let item = Endpoint<Data>(.get, "items/1")

    /// A storage whose calls may wait long on a loaded machine (a full suite, a migration
    /// queued behind another test's): these tests are about sharing, not about timeouts.
    private static func storage(
        _ database: PostgresDatabase,
        _ namespace: String,
        maxBytes: Int = 1 << 20
    ) -> PostgresCacheStorage {
        PostgresCacheStorage(
            database: database,
            namespace: namespace,
            maxBytes: maxBytes,
            timeout: .seconds(90),
            pauseAfterFailure: .zero
        )
    }

    /// Runs `body` with one storage per pool, all in one namespace of their own, and a server.
    private static func withStorages(
        _ count: Int,
        maxBytes: Int = 1 << 20,
        _ body: ([PostgresCacheStorage], Server) async throws -> Void
    ) async throws {
        try await PostgresTestServer.withDatabases(count) { pools in
            let namespace = PostgresTestServer.uniqueKey("cache")
            try await body(pools.map { storage($0, namespace, maxBytes: maxBytes) }, Server())
        }
    }

    @Test("A store stuck behind another worker's cache lock gives its connection back at its timeout")
    func lockWaitEndsWithTheStore() async throws {
        try await PostgresTestServer.withDatabases(2, maximumConnections: 1) { pools in
            let namespace = PostgresTestServer.uniqueKey("cache")
            let server = Server()
            // Migrated and warm first, with time to spare; then a store that may wait 300 ms.
            _ = try await Self.client(Self.storage(pools[0], namespace), server).send(Self.item)
            let storage = PostgresCacheStorage(
                database: pools[0],
                namespace: namespace,
                timeout: .milliseconds(300),
                pauseAfterFailure: .zero
            )
            let held = AsyncStream<Void>.makeStream()
            let release = AsyncStream<Void>.makeStream()
            let key = "httpcore-cache/\(pools[0].schema)/\(namespace)"
            let holder = Task {
                try await pools[1].withConnection("hold the cache lock") { connection in
                    try await connection.run("BEGIN")
                    try await connection.run("SELECT pg_advisory_xact_lock(hashtextextended(\(key), 0))")
                    held.continuation.yield()
                    for await _ in release.stream { break }
                    try await connection.run("ROLLBACK")
                }
            }
            for await _ in held.stream { break }
            _ = try await Self.client(storage, server).send(Endpoint<Data>(.get, "items/2"))
            // The pool's one connection answers again while the lock is still held.
            let answered = Locked(false)
            let reader = Task {
                try await pools[0].withConnection("read") { try await $0.run("SELECT 1") }
                answered.withLock { $0 = true }
            }
            let freed = await waitUntil(timeLimit: .seconds(10)) { answered.withLock { $0 } }
            release.continuation.yield()
            try await holder.value
            try await reader.value
            #expect(freed, "the store kept the pool's connection waiting on the lock")
        }
    }

    @Test("Stored by one worker's pool, a 304 revalidation for another's; another credential misses")
    func sharedAcrossPools() async throws {
        try await Self.withStorages(2) { storages, server in
            _ = try await Self.client(storages[0], server).send(Self.item)
            let hooks = Recorder()
            let response = try await Self.client(storages[1], server, hooks: hooks).response(Self.item)
            #expect(response.fromCache)
            #expect(hooks.kinds == [.hit, .revalidated])
            let stranger = Recorder()
            _ = try await Self.client(storages[1], server, token: "someone-else", hooks: stranger).send(Self.item)
            #expect(server.conditionalRequests == [nil, "\"v1\"", nil])
            #expect(stranger.kinds == [.miss, .stored])
            #expect(try await storages[0].usage().entryCount == 2)
            // The table holds digests and the redacted URL, never the token.
            let database = storages[0].database
            try await database.withConnection("read the cache") { connection in
                let rows = try await connection.query(
                    """
                    SELECT key || primary_key || display_url || array_to_string(header_names, ',')
                        || array_to_string(header_values, ',')
                    FROM \(unescaped: database.schema).cache_entries WHERE namespace = \(storages[0].namespace)
                    """,
                    logger: PostgresDatabase.quiet
                )
                for try await text in rows.decode(String.self) { #expect(!text.contains("token")) }
            }
        }
    }

    @Test("A write by one worker drops the entry every worker would have revalidated")
    func writeInvalidatesAcrossPools() async throws {
        try await Self.withStorages(2) { storages, server in
            let reader = try Self.client(storages[0], server)
            _ = try await reader.send(Self.item)
            let writerHooks = Recorder()
            _ = try await Self.client(storages[1], server, hooks: writerHooks).send(Endpoint<Data>(.put, "items/1"))
            #expect(writerHooks.events.withLock { $0.map(\.reason) } == [.invalidated])
            server.version.withLock { $0 = 2 }
            let again = try await reader.response(Self.item)
            #expect(!again.fromCache)
            #expect(server.conditionalRequests == [nil, nil, nil])
        }
    }

    @Test("Workers on two pools storing at once stay under the byte bound; the oldest entries go")
    func byteBoundAcrossPools() async throws {
        let bound = 4000
        try await Self.withStorages(2, maxBytes: bound) { storages, server in
            let clients = try storages.map { try Self.client($0, server) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for number in 1...12 {
                    group.addTask {
                        _ = try await clients[number % 2].send(Endpoint<Data>(.get, "items/\(number)"))
                    }
                }
                try await group.waitForAll()
            }
            let usage = try await storages[0].usage()
            #expect(usage.byteCount <= bound)
            #expect(usage.entryCount >= 2)
            // Stored after all the others, item 13 survives the trim it causes.
            _ = try await clients[0].send(Endpoint<Data>(.get, "items/13"))
            #expect(try await storages[1].usage().byteCount <= bound)
            let latest = try await Self.client(storages[1], server).response(Endpoint<Data>(.get, "items/13"))
            #expect(latest.fromCache)
        }
    }

    @Test("The database going away: requests succeed as misses, each failure reported, and calls stop waiting")
    func databaseGoneDegradesToMisses() async throws {
        try await Self.withStorages(1) { storages, server in
            let storage = storages[0]
            _ = try await Self.client(storage, server).send(Self.item)
            await storage.database.shutdown()
            let hooks = Recorder()
            let response = try await Self.client(storage, server, hooks: hooks).response(Self.item)
            #expect(!response.fromCache)
            #expect(hooks.kinds == [.unavailable, .miss, .unavailable])
        }
        // Nothing listens on port 1: the pool never connects, and the call gives up in time.
        let unreachable = try PostgresDatabase(url: "postgres://nobody:secret-password@127.0.0.1:1/none")
        unreachable.start()
        let storage = PostgresCacheStorage(database: unreachable, timeout: .milliseconds(300))
        let hooks = Recorder()
        let clock = ContinuousClock()
        let start = clock.now
        _ = try await Self.client(storage, Server(), hooks: hooks).send(Self.item)
        // The second request finds the storage paused and does not wait again.
        _ = try await Self.client(storage, Server(), hooks: hooks).send(Self.item)
        let elapsed = clock.now - start
        await unreachable.shutdown()
        #expect(hooks.kinds == Array(repeating: [.unavailable, .miss, .unavailable], count: 2).flatMap { $0 })
        #expect(elapsed < .seconds(3))
        let failures = hooks.events.withLock { $0.compactMap(\.failure) }
        #expect(failures.count == 4 && failures.allSatisfy { !$0.contains("secret-password") })
    }
}
