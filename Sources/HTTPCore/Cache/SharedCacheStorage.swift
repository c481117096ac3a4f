public import HTTPTypes

/// A storage that several processes share, such as a database: it keeps its own index, finds
/// entries, enforces its byte bound and drops entries for a written URL itself.
///
/// A ``ResponseCache`` on a shared storage keeps no index of its own, because other processes
/// store, evict and invalidate entries it would never hear about; it asks the storage on every
/// lookup. The calls are asynchronous so a storage can be remote, and the cache never makes them
/// while it holds a lock.
///
/// A storage failure never fails a request: the cache treats a failed lookup as a miss, a failed
/// store as not stored, and reports each failure to ``Hooks/cache(_:)`` as an
/// ``CacheEvent/Kind/unavailable`` event. Errors a storage throws must not quote secrets (bound
/// values, connection strings), since their descriptions reach those events.
///
/// Entries arrive keyed as the cache keys them (SHA-256 digests that include the credential
/// scope), so a storage never needs to see a credential to keep users apart.
public protocol SharedCacheStorage: Sendable {
    /// The most bytes the storage keeps, counted as ``CachedResponse/byteCount``; the cache does not
    /// offer it a larger entry.
    var maxBytes: Int { get }

    /// The stored variant that matches `query`: among the entries under its
    /// ``CacheQuery/primaryKey``, the one whose ``CachedResponse/key`` equals
    /// `query.key(varyingOn: entry.varyHeaders)`.
    func entry(matching query: CacheQuery) async throws -> CachedResponse?

    /// Stores `entry` under its key, replacing any entry there, drops the variants of its primary key
    /// whose `Vary` headers differ, then the entries stored longest ago (or used least recently,
    /// as the storage chooses) until it is within ``maxBytes`` again.
    ///
    /// - Returns: The entries dropped.
    @discardableResult
    func store(_ entry: CachedResponse) async throws -> [CacheEntrySummary]

    /// Removes the entry under `key`.
    ///
    /// - Returns: The entry removed, if there was one.
    @discardableResult
    func removeEntry(forKey key: String) async throws -> CacheEntrySummary?

    /// Removes every entry for a URL digest (``CachedResponse/urlKey``): every method, credential
    /// scope and variant.
    ///
    /// - Returns: The entries removed.
    @discardableResult
    func removeEntries(forURLKey urlKey: String) async throws -> [CacheEntrySummary]

    /// Removes every entry.
    func removeAll() async throws

    /// How many entries and bytes the storage holds now.
    func usage() async throws -> CacheUsage
}

/// What a ``SharedCacheStorage`` is asked for: the request's key without its `Vary` values, and
/// its headers, to work out the key of each stored variant.
public struct CacheQuery: Sendable {
    /// The request's key without `Vary` values (``CachedResponse/primaryKey``).
    public let primaryKey: String
    /// The request's headers.
    public let requestHeaders: HTTPFields

    /// Creates a query.
    public init(primaryKey: String, requestHeaders: HTTPFields) {
        self.primaryKey = primaryKey
        self.requestHeaders = requestHeaders
    }

    /// The key a stored variant that varies on `varyHeaders` has when it matches this request.
    public func key(varyingOn varyHeaders: [String]) -> String {
        ResponseCache.fullKey(primary: primaryKey, varyHeaders: varyHeaders, request: requestHeaders)
    }
}

/// How much a cache holds.
public struct CacheUsage: Sendable, Hashable {
    /// The number of entries.
    public var entryCount: Int
    /// Their bytes, as counted against the byte bound (``CachedResponse/byteCount``).
    public var byteCount: Int

    /// Creates a figure.
    public init(entryCount: Int, byteCount: Int) {
        self.entryCount = entryCount
        self.byteCount = byteCount
    }
}
