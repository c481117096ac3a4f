public import Foundation
public import HTTPTypes

/// One stored response, as a ``CacheStorage`` keeps it.
///
/// Keys are SHA-256 digests: an entry never holds a credential, a full request header or a URL
/// with its query secrets — only the redacted URL for hook events.
public struct CachedResponse: Sendable, Hashable {
    /// The entry's key: the request's method, URL, credential scope and `Vary` header values.
    public var key: String
    /// The key without the `Vary` values; variants of one resource share it.
    public var primaryKey: String
    /// A digest of the URL alone, so a write to the URL can drop every variant and scope.
    public var urlKey: String
    /// The lowercased request header names the response's `Vary` listed.
    public var varyHeaders: [String]
    /// The stored HTTP status (a 2xx).
    public var status: Int
    /// The stored response headers, without `Set-Cookie` or the client's secret headers.
    public var headers: HTTPFields
    /// The stored body.
    public var body: Data
    /// When the response was stored.
    public var storedAt: Date
    /// The request URL with secrets replaced, for hook events about this entry.
    public var displayURL: String

    /// Creates an entry.
    public init(
        key: String,
        primaryKey: String,
        urlKey: String,
        varyHeaders: [String],
        status: Int,
        headers: HTTPFields,
        body: Data,
        storedAt: Date,
        displayURL: String
    ) {
        self.key = key
        self.primaryKey = primaryKey
        self.urlKey = urlKey
        self.varyHeaders = varyHeaders
        self.status = status
        self.headers = headers
        self.body = body
        self.storedAt = storedAt
        self.displayURL = displayURL
    }

    /// What the entry costs against the cache's byte limit: body, headers and a little
    /// bookkeeping.
    public var byteCount: Int {
        var total = body.count + 256
        for field in headers { total += field.name.rawName.utf8.count + field.value.utf8.count + 4 }
        return total
    }

    /// The metadata the cache's index needs.
    public var summary: CacheEntrySummary {
        CacheEntrySummary(
            key: key,
            primaryKey: primaryKey,
            urlKey: urlKey,
            varyHeaders: varyHeaders,
            byteCount: byteCount,
            displayURL: displayURL
        )
    }
}

/// An entry's metadata without its body, for rebuilding a ``ResponseCache``'s index from a
/// storage that outlives the process.
public struct CacheEntrySummary: Sendable, Hashable {
    /// See ``CachedResponse/key``.
    public var key: String
    /// See ``CachedResponse/primaryKey``.
    public var primaryKey: String
    /// See ``CachedResponse/urlKey``.
    public var urlKey: String
    /// See ``CachedResponse/varyHeaders``.
    public var varyHeaders: [String]
    /// See ``CachedResponse/byteCount``.
    public var byteCount: Int
    /// See ``CachedResponse/displayURL``.
    public var displayURL: String

    /// Creates a summary.
    public init(
        key: String,
        primaryKey: String,
        urlKey: String,
        varyHeaders: [String],
        byteCount: Int,
        displayURL: String
    ) {
        self.key = key
        self.primaryKey = primaryKey
        self.urlKey = urlKey
        self.varyHeaders = varyHeaders
        self.byteCount = byteCount
        self.displayURL = displayURL
    }
}

/// Where a ``ResponseCache`` keeps its entries when it keeps their index itself: in memory or on
/// a local disk.
///
/// The cache does the bookkeeping (limits, least-recently-used order, invalidation) and calls
/// the storage while holding its own lock, so a storage only needs to be a thread-safe
/// key–value store, and the index and the storage never disagree. The calls are synchronous for
/// that reason, and because they are quick. One storage belongs to one cache.
///
/// A storage that other processes write to, or that is reached over a network, is a
/// ``SharedCacheStorage`` instead: it keeps the index itself and is called asynchronously.
///
/// Implementations must never crash on damaged data: an entry that cannot be read back is
/// simply absent.
public protocol CacheStorage: Sendable {
    /// Every readable entry, least recently used first. Called once, when the cache first
    /// needs its index.
    func summaries() -> [CacheEntrySummary]
    /// The entry stored under `key`, or `nil` when there is none or it cannot be read.
    func entry(forKey key: String) -> CachedResponse?
    /// Stores `entry` under its ``CachedResponse/key``, replacing any entry there.
    ///
    /// - Throws: When the entry could not be stored; the cache then treats it as not stored.
    func store(_ entry: CachedResponse) throws
    /// Removes the entry under `key`, if any.
    func removeEntry(forKey key: String)
    /// Removes every entry.
    func removeAll()
}

/// Keeps entries in memory: fast, and gone when the process ends. The default storage.
public final class MemoryCacheStorage: CacheStorage {
    private let entries = Locked<[String: CachedResponse]>([:])

    /// Creates an empty store.
    public init() {}

    /// Every entry, in no particular order (a memory store starts empty with its cache).
    public func summaries() -> [CacheEntrySummary] {
        entries.withLock { $0.values.map(\.summary) }
    }

    /// The entry under `key`.
    public func entry(forKey key: String) -> CachedResponse? {
        entries.withLock { $0[key] }
    }

    /// Stores `entry`.
    public func store(_ entry: CachedResponse) {
        entries.withLock { $0[entry.key] = entry }
    }

    /// Removes the entry under `key`.
    public func removeEntry(forKey key: String) {
        entries.withLock { $0[key] = nil }
    }

    /// Removes every entry.
    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
