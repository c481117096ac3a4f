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
/// ```
///
/// Only GET and HEAD are cached. Entries are keyed by method, full URL, a credential scope (a
/// SHA-256 digest of the `Authorization`, `Cookie` and other secret header values — never the
/// values themselves) and the request headers the response's `Vary` names. Responses with
/// `Cache-Control: no-store` are never stored. A successful POST, PUT, PATCH or DELETE drops
/// the entries for its URL. The least recently used entries go first when ``maxEntries`` or
/// ``maxBytes`` would be exceeded.
///
/// One cache may be shared by several clients; it is safe to use from any task.
public final class ResponseCache: Sendable {
    /// The most entries kept.
    public let maxEntries: Int
    /// The most bytes kept (bodies plus headers); a response larger than this is not stored.
    public let maxBytes: Int
    /// Where entries live.
    public let storage: any CacheStorage

    private let state = Locked(IndexState())

    /// Creates a cache.
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
        self.storage = storage
    }

    /// How many entries the cache holds.
    public var count: Int {
        state.withLock { state in
            load(&state)
            return state.records.count
        }
    }

    /// How many bytes the entries take, as counted against ``maxBytes``.
    public var totalBytes: Int {
        state.withLock { state in
            load(&state)
            return state.totalBytes
        }
    }

    /// Drops every entry.
    public func removeAll() {
        state.withLock { state in
            storage.removeAll()
            state = IndexState()
            state.loaded = true
        }
    }

    /// Drops every entry for `url`, whatever the method, credentials or variant, and returns
    /// how many were dropped. The client does this by itself after a successful write.
    @discardableResult
    public func invalidate(_ url: URL) -> Int {
        invalidate(urlKey: Self.urlKey(url)).count
    }

    // MARK: Keys

    /// The parts of a request's key that do not depend on a stored response.
    struct RequestKey {
        var primary: String
        /// The request's URL as text (a request carries no fragment).
        var url: String

        /// The key that groups every entry for the URL; hashed only when an entry is stored.
        var urlKey: String { ResponseCache.urlKey(text: url) }
    }

    /// Headers whose values identify who is asking; their digest scopes every key, so one
    /// user's entries are never served to another.
    static let credentialHeaders: [HTTPField.Name] = [.authorization, .proxyAuthorization, .cookie]

    /// The key for `request`, whose URL is `url`: its method, URL and the credential headers it
    /// carries, in a fixed order whatever the header order (the standard ones first, then the
    /// redactor's others by name).
    static func requestKey(for request: HTTPRequest, url: String, redactor: Redactor) -> RequestKey {
        var hasher = CacheKeyHasher()
        hasher.update(field: "httpcore-cache-v1")
        hasher.update(field: request.method.rawValue)
        hasher.update(field: url)
        var present: [HTTPField.Name] = []
        for field in request.headerFields
        where !present.contains(field.name)
            && (credentialHeaders.contains(field.name) || redactor.secretHeaders.contains(field.name))
        {
            present.append(field.name)
        }
        present.sort { lhs, rhs in
            let left = credentialHeaders.firstIndex(of: lhs) ?? credentialHeaders.count
            let right = credentialHeaders.firstIndex(of: rhs) ?? credentialHeaders.count
            return left != right ? left < right : lhs.canonicalName < rhs.canonicalName
        }
        for name in present {
            hasher.update(field: name.canonicalName)
            for value in request.headerFields[values: name] { hasher.update(field: value) }
        }
        return RequestKey(primary: hasher.finalize(), url: url)
    }

    static func fullKey(primary: String, varyHeaders: [String], request: HTTPFields) -> String {
        guard !varyHeaders.isEmpty else { return primary }
        var hasher = CacheKeyHasher()
        hasher.update(field: primary)
        for name in varyHeaders {
            hasher.update(field: name)
            let values = HTTPField.Name(name).map { request[values: $0] } ?? []
            hasher.update(field: values.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
        }
        return hasher.finalize()
    }

    static func urlKey(_ url: URL) -> String {
        urlKey(text: normalized(url))
    }

    static func urlKey(text: String) -> String {
        var hasher = CacheKeyHasher()
        hasher.update(field: "httpcore-cache-url-v1")
        hasher.update(field: text)
        return hasher.finalize()
    }

    /// The URL without its fragment, which never reaches the server.
    private static func normalized(_ url: URL) -> String {
        let text = url.absoluteString
        guard let hash = text.firstIndex(of: "#") else { return text }
        return String(text[..<hash])
    }

    // MARK: Index

    private struct Record: Sendable {
        var summary: CacheEntrySummary
        var lastUse: UInt64
    }

    private struct IndexState: Sendable {
        var loaded = false
        var records: [String: Record] = [:]
        var byPrimary: [String: Set<String>] = [:]
        var byURL: [String: Set<String>] = [:]
        var totalBytes = 0
        var useCounter: UInt64 = 0
    }

    /// What a lookup found.
    struct Lookup: Sendable {
        /// The stored response matching the request, if any.
        var entry: CachedResponse?
        /// Entries found damaged and dropped on the way.
        var dropped: [CacheEntrySummary]
    }

    /// The entry matching a request, marked as just used.
    func lookup(_ key: RequestKey, headers: HTTPFields) -> Lookup {
        state.withLock { state in
            load(&state)
            guard let match = matchingRecord(key, headers: headers, in: state) else {
                return Lookup(entry: nil, dropped: [])
            }
            guard let entry = storage.entry(forKey: match), entry.key == match else {
                let dropped = remove(match, from: &state)
                return Lookup(entry: nil, dropped: dropped.map { [$0] } ?? [])
            }
            state.useCounter += 1
            state.records[match]?.lastUse = state.useCounter
            return Lookup(entry: entry, dropped: [])
        }
    }

    /// Drops the entry a request would match, when a newer response for it may not be kept.
    func removeMatching(_ key: RequestKey, headers: HTTPFields) -> CacheEntrySummary? {
        state.withLock { state in
            load(&state)
            return matchingRecord(key, headers: headers, in: state).flatMap { remove($0, from: &state) }
        }
    }

    /// The key of the stored variant whose `Vary` header values equal the request's.
    private func matchingRecord(_ key: RequestKey, headers: HTTPFields, in state: IndexState) -> String? {
        guard let variants = state.byPrimary[key.primary] else { return nil }
        for variant in variants {
            guard let vary = state.records[variant]?.summary.varyHeaders else { continue }
            let candidate = Self.fullKey(primary: key.primary, varyHeaders: vary, request: headers)
            if variants.contains(candidate) { return candidate }
        }
        return nil
    }

    /// What storing did.
    struct StoreOutcome: Sendable {
        /// Whether the entry is now in the cache.
        var stored: Bool
        /// Entries dropped to make room or because the resource's `Vary` changed.
        var evicted: [(summary: CacheEntrySummary, reason: CacheEvent.EvictionReason)]
    }

    /// Stores `entry`, evicting the least recently used entries beyond the limits.
    func store(_ entry: CachedResponse) -> StoreOutcome {
        let size = entry.byteCount
        return state.withLock { state in
            load(&state)
            var evicted: [(summary: CacheEntrySummary, reason: CacheEvent.EvictionReason)] = []
            guard size <= maxBytes, maxEntries > 0 else {
                if let dropped = remove(entry.key, from: &state) { evicted.append((dropped, .notCacheable)) }
                return StoreOutcome(stored: false, evicted: evicted)
            }
            do {
                try storage.store(entry)
            } catch {
                if let dropped = remove(entry.key, from: &state) { evicted.append((dropped, .unreadable)) }
                return StoreOutcome(stored: false, evicted: evicted)
            }
            // A resource whose Vary changed leaves variants that can never match again.
            for variant in state.byPrimary[entry.primaryKey] ?? []
            where variant != entry.key && state.records[variant]?.summary.varyHeaders != entry.varyHeaders {
                if let dropped = remove(variant, from: &state) { evicted.append((dropped, .replaced)) }
            }
            if let old = state.records[entry.key] { state.totalBytes -= old.summary.byteCount }
            state.useCounter += 1
            state.records[entry.key] = Record(summary: entry.summary, lastUse: state.useCounter)
            state.byPrimary[entry.primaryKey, default: []].insert(entry.key)
            state.byURL[entry.urlKey, default: []].insert(entry.key)
            state.totalBytes += size
            while state.records.count > maxEntries || state.totalBytes > maxBytes {
                guard
                    let oldest = state.records.lazy.filter({ $0.key != entry.key })
                        .min(by: { $0.value.lastUse < $1.value.lastUse })?.key,
                    let dropped = remove(oldest, from: &state)
                else { break }
                evicted.append((dropped, .capacity))
            }
            return StoreOutcome(stored: true, evicted: evicted)
        }
    }

    /// Replaces a stored entry's headers after a 304 changed its validators, keeping its place.
    func refresh(_ entry: CachedResponse) {
        state.withLock { state in
            guard let record = state.records[entry.key], (try? storage.store(entry)) != nil else { return }
            state.totalBytes += entry.byteCount - record.summary.byteCount
            state.records[entry.key]?.summary = entry.summary
        }
    }

    /// Drops the entry under `key`.
    func remove(key: String) -> CacheEntrySummary? {
        state.withLock { state in
            load(&state)
            return remove(key, from: &state)
        }
    }

    /// Drops every entry for a URL digest.
    func invalidate(urlKey: String) -> [CacheEntrySummary] {
        state.withLock { state in
            load(&state)
            return (state.byURL[urlKey] ?? []).compactMap { remove($0, from: &state) }
        }
    }

    private func remove(_ key: String, from state: inout IndexState) -> CacheEntrySummary? {
        storage.removeEntry(forKey: key)
        guard let record = state.records.removeValue(forKey: key) else { return nil }
        let summary = record.summary
        state.totalBytes -= summary.byteCount
        state.byPrimary[summary.primaryKey]?.remove(key)
        if state.byPrimary[summary.primaryKey]?.isEmpty == true { state.byPrimary[summary.primaryKey] = nil }
        state.byURL[summary.urlKey]?.remove(key)
        if state.byURL[summary.urlKey]?.isEmpty == true { state.byURL[summary.urlKey] = nil }
        return summary
    }

    /// Builds the index from storage the first time it is needed, so a disk cache opened by a
    /// new process knows its entries.
    private func load(_ state: inout IndexState) {
        guard !state.loaded else { return }
        state.loaded = true
        for summary in storage.summaries() {
            state.useCounter += 1
            state.records[summary.key] = Record(summary: summary, lastUse: state.useCounter)
            state.byPrimary[summary.primaryKey, default: []].insert(summary.key)
            state.byURL[summary.urlKey, default: []].insert(summary.key)
            state.totalBytes += summary.byteCount
        }
        while state.records.count > maxEntries || state.totalBytes > maxBytes {
            guard let oldest = state.records.min(by: { $0.value.lastUse < $1.value.lastUse })?.key,
                remove(oldest, from: &state) != nil
            else { break }
        }
    }
}
