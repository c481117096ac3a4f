public import HTTPTypes

/// Decides how fast requests may go out: a permit per request, per key.
///
/// A client with a ``ClientConfiguration/rateLimit`` asks its limiter for a permit before every
/// attempt it makes (each retry and each replay auth asks for included; the hops of one attempt's
/// redirect share its permit), and tells it when the server
/// answers `429 Too Many Requests` with a `Retry-After`, so every caller sharing the limiter
/// waits until then instead of being refused in turn. ``TokenBucketRateLimiter`` keeps the
/// budget in the process; a limiter backed by a shared database can keep one budget for a fleet
/// of processes.
///
/// Keys name the budget a request spends from (an account id, say); they appear in error
/// messages, so never use a secret as a key. Times are readings of the client's ``TimeSource``,
/// which the client passes in, so a limiter in tests never really sleeps. Share one limiter only
/// between clients on the same time source.
public protocol RateLimiter: Sendable {
    /// Waits until one request under `key` may be sent, and takes the permit.
    ///
    /// Waiters are served in the order they asked, as far as the limiter can tell.
    ///
    /// - Parameters:
    ///   - key: The budget to spend from.
    ///   - deadline: When the call must be over, on `timeSource`'s monotonic clock; `nil` for none.
    ///   - timeSource: The client's clock, to read the time and to wait on.
    /// - Throws: `CancellationError` when the task is cancelled while waiting (no permit is
    ///   taken); ``APIError/rateLimit(_:)`` when no permit can come before `deadline`, at once
    ///   when the limiter can tell, with ``APIError/Details/retryAfter`` saying when one would.
    func acquirePermit(for key: String, deadline: Duration?, timeSource: any TimeSource) async throws

    /// Stops every request under `key` for `duration`: the server refused one and asked to wait.
    ///
    /// A pause never shortens one already in place.
    func pause(_ key: String, for duration: Duration, timeSource: any TimeSource) async
}

/// A request rate: at most ``permits`` requests in any ``window``.
public struct RequestRate: Sendable, Hashable {
    /// How many requests one window allows.
    public var permits: Int
    /// The length of the window.
    public var window: Duration

    /// Creates a rate of `permits` requests per `window`.
    public init(_ permits: Int, per window: Duration) {
        self.permits = permits
        self.window = window
    }
}

/// A ``RateLimiter`` and which requests it governs, for ``ClientConfiguration/rateLimit``.
///
/// ```swift
/// let limiter = TokenBucketRateLimiter(RequestRate(50, per: .seconds(10)))
/// configuration.rateLimit = RateLimiting(limiter: limiter) { request in
///     request.authority == "api.example.com" ? "everyone" : nil
/// }
/// ```
public struct RateLimiting: Sendable {
    /// The limiter permits come from.
    public var limiter: any RateLimiter
    /// The key a request spends from, or `nil` for a request the limit does not govern (one to
    /// another origin, say).
    public var key: @Sendable (HTTPRequest) -> String?

    /// Creates a rate limiting setup.
    ///
    /// - Parameters:
    ///   - limiter: The limiter permits come from; share it between clients to share the budget.
    ///   - key: The budget each request spends from; `nil` leaves the request unlimited.
    public init(limiter: any RateLimiter, key: @escaping @Sendable (HTTPRequest) -> String?) {
        self.limiter = limiter
        self.key = key
    }

    /// Every request spends from one budget under `key`.
    public init(limiter: any RateLimiter, key: String) {
        self.init(limiter: limiter) { _ in key }
    }
}
