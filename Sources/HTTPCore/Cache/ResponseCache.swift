public import Foundation
import HTTPTypes

/// An HTTP cache for a ``Client``: stores responses that carry an `ETag` or `Last-Modified`
/// and revalidates them with `If-None-Match` / `If-Modified-Since`, so an unchanged resource
/// costs a `304 Not Modified` instead of its body.
///
/// Off by default — set ``ClientConfiguration/cache`` to opt in — so private data is never
/// stored by surprise. The cache always asks the server: a stored response is only returned
/// after the server confirmed it with a 304. It behaves the same on every platform (URLSession's
/// own cache on Linux never revalidates).
///
/// ```swift
/// var configuration = ClientConfiguration(baseURL: url)
/// configuration.cache = ResponseCache()                       // memory, 1000 entries, 32 MiB
/// configuration.cache = ResponseCache(storage: DiskCacheStorage(directory: cacheDirectory))
/// configuration.cache = ResponseCache(shared: storage)        // one cache for a fleet
/// ```
///
/// Only GET and HEAD are cached. Entries are keyed by method, full URL, a credential scope (a
/// SHA-256 digest of the `Authorization`, `Cookie` and other secret header values — never the
/// values themselves) and the request headers the response's `Vary` names. Responses with
/// `Cache-Control: no-store` are never stored. A successful POST, PUT, PATCH or DELETE drops
/// the entries for its URL. The least recently used entries go first when ``maxEntries`` or
/// ``maxBytes`` would be exceeded.
///
/// With a ``CacheStorage`` (memory or disk) the cache keeps the index itself; with a
/// ``SharedCacheStorage`` the storage does, since other processes write to it too. A storage
/// failure never fails a request: it is a miss, reported as a ``CacheEvent/Kind/unavailable``
/// event.
///
/// One cache may be shared by several clients; it is safe to use from any task.
public final class ResponseCache: Sendable {
    /// The most entries kept; unbounded (`Int.max`) with a shared storage, which bounds bytes.
    public let maxEntries: Int
    /// The most bytes kept (bodies plus headers); a response larger than this is not stored.
    public let maxBytes: Int
    /// Where entries live when the cache keeps their index (memory or disk); `nil` with a
    /// shared storage.
    public var storage: (any CacheStorage)? { sharedStorage == nil ? indexedStorage : nil }
    /// The storage that keeps its own index, shared by processes; `nil` with memory or disk.
    public let sharedStorage: (any SharedCacheStorage)?

    /// The indexed storage; an unused empty memory store when ``sharedStorage`` is set, since
    /// every operation asks the shared storage first.
    let indexedStorage: any CacheStorage
    let state = Locked(IndexState())

    /// Creates a cache that keeps its index in the process.
    ///
    /// - Parameters:
    ///   - maxEntries: The most entries kept (default 1000).
    ///   - maxBytes: The most bytes kept (default 32 MiB).
    ///   - storage: Where entries live; memory by default, or a ``DiskCacheStorage`` to keep
    ///     them across launches.
    public init(
        maxEntries: Int = 1000,
        maxBytes: Int = 32 * 1024 * 1024,
        storage: any CacheStorage = MemoryCacheStorage()
    ) {
        self.maxEntries = max(maxEntries, 0)
        self.maxBytes = max(maxBytes, 0)
        self.indexedStorage = storage
        self.sharedStorage = nil
    }

    /// Creates a cache on a storage that several processes share, which finds, bounds and
    /// evicts entries itself; ``maxBytes`` is the storage's.
    public init(shared storage: any SharedCacheStorage) {
        self.maxEntries = .max
        self.maxBytes = max(storage.maxBytes, 0)
        self.indexedStorage = MemoryCacheStorage()
        self.sharedStorage = storage
    }

    /// How many entries the cache holds.
    ///
    /// - Throws: What a shared storage throws when it cannot be reached.
    public var count: Int {
        get async throws {
            if let sharedStorage { return try await sharedStorage.usage().entryCount }
            return indexedUsage().entryCount
        }
    }

    /// How many bytes the entries take, as counted against ``maxBytes``.
    ///
    /// - Throws: What a shared storage throws when it cannot be reached.
    public var totalBytes: Int {
        get async throws {
            if let sharedStorage { return try await sharedStorage.usage().byteCount }
            return indexedUsage().byteCount
        }
    }

    /// Drops every entry.
    ///
    /// - Throws: What a shared storage throws when it cannot be reached.
    public func removeAll() async throws {
        if let sharedStorage { return try await sharedStorage.removeAll() }
        indexedRemoveAll()
    }

    /// Drops every entry for `url`, whatever the method, credentials or variant, and returns
    /// how many were dropped. The client does this by itself after a successful write.
    ///
    /// - Throws: What a shared storage throws when it cannot be reached.
    @discardableResult
    public func invalidate(_ url: URL) async throws -> Int {
        let urlKey = Self.urlKey(url)
        if let sharedStorage { return try await sharedStorage.removeEntries(forURLKey: urlKey).count }
        return indexedInvalidate(urlKey: urlKey).count
    }

    // MARK: Operations for the cache stage

    /// What a lookup found.
    struct Lookup: Sendable {
        /// The stored response matching the request, if any.
        var entry: CachedResponse?
        /// Entries found damaged and dropped on the way.
        var dropped: [CacheEntrySummary] = []
        /// The shared storage's failure, when it could not be asked.
        var failure: (any Error)?
    }

    /// What storing did.
    struct StoreOutcome: Sendable {
        /// Whether the entry is now in the cache.
        var stored: Bool
        /// Entries dropped to make room or because the resource's `Vary` changed.
        var evicted: [(summary: CacheEntrySummary, reason: CacheEvent.EvictionReason)] = []
        /// The shared storage's failure, when it could not be written.
        var failure: (any Error)?
    }

    /// What a removal dropped.
    struct Removal: Sendable {
        /// The entries dropped.
        var dropped: [CacheEntrySummary] = []
        /// The shared storage's failure, when it could not be asked.
        var failure: (any Error)?
    }

    /// The entry matching a request, marked as just used.
    func lookup(_ key: RequestKey, headers: HTTPFields) async -> Lookup {
        guard let sharedStorage else { return indexedLookup(key, headers: headers) }
        do {
            let query = CacheQuery(primaryKey: key.primary, requestHeaders: headers)
            return Lookup(entry: try await sharedStorage.entry(matching: query))
        } catch {
            return Lookup(entry: nil, failure: error)
        }
    }

    /// Drops the entry a request would match, when a newer response for it may not be kept.
    func removeMatching(_ key: RequestKey, headers: HTTPFields) async -> Removal {
        guard sharedStorage != nil else {
            return Removal(dropped: indexedRemoveMatching(key, headers: headers).map { [$0] } ?? [])
        }
        let found = await lookup(key, headers: headers)
        guard let entry = found.entry else { return Removal(failure: found.failure) }
        return await remove(key: entry.key)
    }

    /// Stores `entry`, evicting entries beyond the limits.
    func store(_ entry: CachedResponse) async -> StoreOutcome {
        guard let sharedStorage else { return indexedStore(entry) }
        guard entry.byteCount <= maxBytes else {
            let removal = await remove(key: entry.key)
            return StoreOutcome(
                stored: false,
                evicted: removal.dropped.map { ($0, .notCacheable) },
                failure: removal.failure
            )
        }
        do {
            let dropped = try await sharedStorage.store(entry)
            // A dropped variant of the same resource went because its Vary changed.
            return StoreOutcome(
                stored: true,
                evicted: dropped.map { ($0, $0.primaryKey == entry.primaryKey ? .replaced : .capacity) }
            )
        } catch {
            return StoreOutcome(stored: false, failure: error)
        }
    }

    /// Replaces a stored entry's headers after a 304 changed its validators.
    func refresh(_ entry: CachedResponse) async -> StoreOutcome {
        guard sharedStorage != nil else {
            indexedRefresh(entry)
            return StoreOutcome(stored: true)
        }
        return await store(entry)
    }

    /// Drops the entry under `key`.
    func remove(key: String) async -> Removal {
        guard let sharedStorage else { return Removal(dropped: indexedRemove(key: key).map { [$0] } ?? []) }
        do {
            return Removal(dropped: try await sharedStorage.removeEntry(forKey: key).map { [$0] } ?? [])
        } catch {
            return Removal(failure: error)
        }
    }

    /// Drops every entry for a URL digest.
    func invalidate(urlKey: String) async -> Removal {
        guard let sharedStorage else { return Removal(dropped: indexedInvalidate(urlKey: urlKey)) }
        do {
            return Removal(dropped: try await sharedStorage.removeEntries(forURLKey: urlKey))
        } catch {
            return Removal(failure: error)
        }
    }
}
