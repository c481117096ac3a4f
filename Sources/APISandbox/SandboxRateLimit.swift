import NIOConcurrencyHelpers

/// How many requests one caller may make in a sliding window, as APIs limit requests per account
/// and address: Basecamp's is 50 in any 10 seconds (``basecamp``).
public struct SandboxRateLimit: Sendable, Hashable, CustomStringConvertible {
    /// Requests allowed in any one window.
    public var requests: Int
    /// The window's length.
    public var window: Duration

    /// A limit of `requests` in any `window`.
    public init(_ requests: Int, per window: Duration) {
        self.requests = requests
        self.window = window
    }

    /// Basecamp's limit: 50 requests per 10 seconds.
    public static let basecamp = SandboxRateLimit(50, per: .seconds(10))

    /// `50 requests per 10 seconds`.
    public var description: String {
        let milliseconds = window.components.seconds * 1000 + window.components.attoseconds / 1_000_000_000_000_000
        let seconds =
            milliseconds % 1000 == 0 ? String(milliseconds / 1000) : String(Double(milliseconds) / 1000)
        return "\(requests) requests per \(seconds) seconds"
    }
}

/// Counts requests per caller against a ``SandboxRateLimit`` that can be changed, or switched off, while
/// the sandbox runs; a refused request is not counted, so a client that waits as told gets in.
public final class SandboxRateLimiter: Sendable {
    private struct State {
        var limit: SandboxRateLimit?
        var admitted: [String: [Duration]] = [:]
    }

    private let state: NIOLockedValueBox<State>

    /// A limiter enforcing `limit`; `nil` admits everything.
    public init(_ limit: SandboxRateLimit?) {
        state = NIOLockedValueBox(State(limit: limit))
    }

    /// The limit in force; `nil` when off.
    public var limit: SandboxRateLimit? {
        state.withLockedValue { $0.limit }
    }

    /// Replaces the limit and forgets what was counted.
    public func setLimit(_ limit: SandboxRateLimit?) {
        state.withLockedValue { $0 = State(limit: limit) }
    }

    /// Counts a request from `caller` made at `now` and returns `nil`, or, when `caller` has used
    /// up the window, returns how long until its oldest request leaves it (a `Retry-After`)
    /// without counting.
    ///
    /// - Parameters:
    ///   - caller: Whom the limit applies to, e.g. an account and an address.
    ///   - now: The time on a monotonic clock, such as HTTPCore's `TimeSource.monotonicNow()`, so
    ///     a test with a test clock controls the window.
    public func admit(_ caller: String, at now: Duration) -> Duration? {
        state.withLockedValue { state in
            guard let limit = state.limit else { return nil }
            var times = state.admitted[caller, default: []]
            times.removeAll { now - $0 >= limit.window }
            defer { state.admitted[caller] = times }
            guard times.count >= limit.requests, let oldest = times.first else {
                times.append(now)
                return nil
            }
            return oldest + limit.window - now
        }
    }

    /// `wait` as a `Retry-After` value: whole seconds, rounded up, at least 1.
    public static func retryAfter(_ wait: Duration) -> String {
        let (seconds, fraction) = wait.components
        return String(max(1, seconds + (fraction > 0 ? 1 : 0)))
    }
}
