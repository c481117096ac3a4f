import Foundation
public import HTTPCore
import HTTPTypes
import PostgresNIO

/// The ETag cache shared by a fleet: every worker's ``HTTPCore/ResponseCache`` stores and finds
/// its entries in one PostgreSQL table, so a response one worker fetched is a `304` revalidation
/// for all the others.
///
/// ```swift
/// let storage = PostgresCacheStorage(database: database, maxBytes: 256 << 20)
/// configuration.cache = ResponseCache(shared: storage)
/// ```
///
/// - **Keys** are the cache's own SHA-256 digests, which include the credential scope: one
///   credential's entries never answer another's requests, and no token is stored.
/// - **The byte bound** is the database's: each store runs in a transaction that takes the
///   namespace's advisory lock, writes the entry, then deletes the entries *stored longest ago*
///   until the namespace is within ``maxBytes``. Workers together therefore stay under it.
///   Oldest-stored rather than least-recently-used, so a hit is a plain `SELECT` that writes
///   nothing and locks no row: hot entries read by the whole fleet at once never contend, and
///   an evicted hot entry comes back with the next full response.
/// - **Invalidation** is a `DELETE` by URL digest, seen by every worker at once.
/// - **Failures** never fail a request: the cache treats them as misses and reports
///   ``HTTPCore/CacheEvent/Kind/unavailable``. Every call gives up after ``timeout``, and after a
///   failure the storage answers "unavailable" at once for ``pauseAfterFailure``, so a database
///   that went away costs requests nothing but their cache.
public struct PostgresCacheStorage: SharedCacheStorage, CustomStringConvertible {
    /// The database.
    public let database: PostgresDatabase
    /// Which cache this is: workers sharing entries share the name; other names are other caches
    /// in the same table, each with its own bound.
    public let namespace: String
    /// The most bytes the namespace keeps (entries counted as ``HTTPCore/CachedResponse/byteCount``).
    public let maxBytes: Int
    /// The longest a call waits, for a connection and its statements together.
    public var timeout: Duration
    /// How long the storage answers "unavailable" without asking, after a call failed.
    public var pauseAfterFailure: Duration

    let pausedUntil = Locked<ContinuousClock.Instant?>(nil)

    /// A shared cache.
    ///
    /// - Parameters:
    ///   - database: The shared database.
    ///   - namespace: The cache's name, shared by the workers that share entries.
    ///   - maxBytes: The most bytes kept (64 MiB by default).
    ///   - timeout: The longest a call waits (2 s).
    ///   - pauseAfterFailure: How long to stop asking after a failure (5 s).
    public init(
        database: PostgresDatabase,
        namespace: String = "default",
        maxBytes: Int = 64 * 1024 * 1024,
        timeout: Duration = .seconds(2),
        pauseAfterFailure: Duration = .seconds(5)
    ) {
        self.database = database
        self.namespace = namespace
        self.maxBytes = max(maxBytes, 0)
        self.timeout = timeout
        self.pauseAfterFailure = pauseAfterFailure
    }

    /// The namespace, bound and database; never a password.
    public var description: String {
        "PostgresCacheStorage(\(namespace), \(maxBytes) bytes, in \(database))"
    }

    /// The stored variant that matches `query`, in one `SELECT` of the primary key's variants.
    ///
    /// - Throws: ``HTTPCore/APIError/network(_:)`` when the database cannot be reached in time.
    public func entry(matching query: CacheQuery) async throws -> CachedResponse? {
        try await call("look up a cache entry") { storage, connection in
            try await storage.variants(of: query.primaryKey, on: connection)
                .first { $0.key == query.key(varyingOn: $0.varyHeaders) }
        }
    }

    /// Stores `entry`, drops its primary key's variants with other `Vary` headers and then the
    /// entries stored longest ago beyond ``maxBytes``, in one transaction.
    ///
    /// - Returns: The entries dropped.
    /// - Throws: ``HTTPCore/APIError/network(_:)`` when the database cannot be reached in time.
    @discardableResult
    public func store(_ entry: CachedResponse) async throws -> [CacheEntrySummary] {
        try await call("store a cache entry") { storage, connection in
            try await storage.write(entry, on: connection)
        }
    }

    /// Removes the entry under `key`.
    ///
    /// - Throws: ``HTTPCore/APIError/network(_:)`` when the database cannot be reached in time.
    @discardableResult
    public func removeEntry(forKey key: String) async throws -> CacheEntrySummary? {
        try await call("remove a cache entry") { storage, connection in
            try await storage.delete(where: "key", is: key, on: connection).first
        }
    }

    /// Removes every entry for a URL digest, for every worker.
    ///
    /// - Throws: ``HTTPCore/APIError/network(_:)`` when the database cannot be reached in time.
    @discardableResult
    public func removeEntries(forURLKey urlKey: String) async throws -> [CacheEntrySummary] {
        try await call("invalidate cache entries") { storage, connection in
            try await storage.delete(where: "url_key", is: urlKey, on: connection)
        }
    }

    /// Removes every entry of the namespace.
    ///
    /// - Throws: ``HTTPCore/APIError/network(_:)`` when the database cannot be reached in time.
    public func removeAll() async throws {
        try await call("clear the cache") { storage, connection in
            try await connection.run(
                "DELETE FROM \(unescaped: storage.database.schema).cache_entries WHERE namespace = \(storage.namespace)"
            )
        }
    }

    /// The namespace's entries and bytes.
    ///
    /// - Throws: ``HTTPCore/APIError/network(_:)`` when the database cannot be reached in time.
    public func usage() async throws -> CacheUsage {
        try await call("measure the cache") { storage, connection in
            let rows = try await connection.query(
                """
                SELECT count(*)::bigint, coalesce(sum(byte_count), 0)::bigint
                FROM \(unescaped: storage.database.schema).cache_entries WHERE namespace = \(storage.namespace)
                """,
                logger: PostgresDatabase.quiet
            )
            for try await (count, bytes) in rows.decode((Int, Int).self) {
                return CacheUsage(entryCount: count, byteCount: bytes)
            }
            return CacheUsage(entryCount: 0, byteCount: 0)
        }
    }

    // MARK: Calls

    /// Runs `body` on a pooled connection within ``timeout``, unless a recent failure paused the
    /// storage; a failure starts a pause.
    private func call<Result: Sendable>(
        _ action: String,
        _ body: @escaping @Sendable (PostgresCacheStorage, PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let clock = ContinuousClock()
        if let until = pausedUntil.withLock({ $0 }), clock.now < until {
            throw Self.paused(action)
        }
        do {
            return try await Self.within(timeout, action) { [self] in
                try await database.prepare()
                return try await database.withConnection(action) { connection in try await body(self, connection) }
            }
        } catch let error as CancellationError {
            throw error
        } catch {
            let until = clock.now.advanced(by: pauseAfterFailure)
            pausedUntil.withLock { $0 = until }
            throw error
        }
    }

    /// What `body` returns, or a `network` error once `timeout` has passed. The body runs in a
    /// task of its own and is cancelled then, but not waited for: a connection attempt or a
    /// migration stuck on a server that went away must not hold the request.
    private static func within<Result: Sendable>(
        _ timeout: Duration,
        _ action: String,
        _ body: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        let work = Locked<Task<Void, Never>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                let pending = Locked<CheckedContinuation<Result, any Error>?>(continuation)
                let finish: @Sendable (Swift.Result<Result, any Error>) -> Void = { outcome in
                    pending.withLock { waiting -> CheckedContinuation<Result, any Error>? in
                        defer { waiting = nil }
                        return waiting
                    }?.resume(with: outcome)
                }
                let timer = Task {
                    try? await Task.sleep(for: timeout)
                    finish(.failure(timedOut(action, timeout)))
                    work.withLock { $0?.cancel() }
                }
                let task = Task {
                    do {
                        finish(.success(try await body()))
                    } catch {
                        finish(.failure(error))
                    }
                    timer.cancel()
                }
                work.withLock { $0 = task }
            }
        } onCancel: {
            work.withLock { $0?.cancel() }
        }
    }

    private static func timedOut(_ action: String, _ timeout: Duration) -> APIError {
        APIError.network(
            APIError.Details(
                message: "Could not \(action): PostgreSQL did not answer within \(timeout).",
                hint: "The cache goes on without it; check the server's health."
            )
        )
    }

    private static func paused(_ action: String) -> APIError {
        APIError.network(
            APIError.Details(
                message: "Did not \(action): the shared cache is paused after a recent failure.",
                hint: "It asks PostgreSQL again after its pause."
            )
        )
    }
}
