public import HTTPTypes

/// Something the client's ``ResponseCache`` did for one attempt, reported to
/// ``Hooks/cache(_:)``.
///
/// A cached GET normally produces `hit` (a stored entry matched, so the request went out with
/// `If-None-Match` / `If-Modified-Since`) followed by `revalidated` (the server answered 304 and
/// the stored body was used) — or by `stored` when the resource changed. A request with no
/// matching entry produces `miss`, then `stored` if the response could be cached. A shared
/// storage that fails produces `unavailable`, and the request goes on as a miss.
public struct CacheEvent: Sendable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A stored entry matched; the request was made conditional.
        case hit
        /// No stored entry matched.
        case miss
        /// The server answered 304 and the stored body was returned.
        case revalidated
        /// A response was stored (or replaced the stored one).
        case stored
        /// An entry was dropped; ``CacheEvent/reason`` says why.
        case evicted
        /// A ``SharedCacheStorage`` failed (``CacheEvent/failure`` says how); the request went on
        /// as if nothing were stored: a lookup became a miss, a response was not stored.
        case unavailable
    }

    /// Why an entry was dropped.
    public enum EvictionReason: String, Sendable, Hashable, CaseIterable {
        /// The cache was over its entry or byte limit; the least recently used entry went.
        case capacity
        /// A successful write (POST, PUT, PATCH, DELETE) to its URL.
        case invalidated
        /// The resource changed its `Vary` headers, so older variants can never match.
        case replaced
        /// A newer response for it may not be stored (`no-store`, no validator, too large).
        case notCacheable
        /// Its stored bytes could not be read back or written.
        case unreadable
    }

    /// What happened.
    public var kind: Kind
    /// Why an entry was dropped; `nil` unless ``kind`` is ``Kind/evicted``.
    public var reason: EvictionReason?
    /// The operation of the call that caused the event.
    public var operation: OperationMetadata
    /// The request's HTTP method.
    public var method: HTTPRequest.Method
    /// The URL the event is about, secrets replaced. For an eviction this is the evicted entry's
    /// URL, which may differ from the request's.
    public var url: String
    /// The id of the call that caused the event.
    public var callID: UInt64
    /// The attempt of that call (1 for the first).
    public var attempt: Int
    /// The size of the entry concerned, as counted against the cache's byte limit.
    public var byteCount: Int?
    /// What the storage reported; `nil` unless ``kind`` is ``Kind/unavailable``.
    public var failure: String?

    /// Creates an event.
    public init(
        kind: Kind,
        reason: EvictionReason? = nil,
        operation: OperationMetadata,
        method: HTTPRequest.Method,
        url: String,
        callID: UInt64,
        attempt: Int,
        byteCount: Int? = nil,
        failure: String? = nil
    ) {
        self.kind = kind
        self.reason = reason
        self.operation = operation
        self.method = method
        self.url = url
        self.callID = callID
        self.attempt = attempt
        self.byteCount = byteCount
        self.failure = failure
    }
}
