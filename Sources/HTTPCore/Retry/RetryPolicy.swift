/// When and how a client tries a failed request again.
///
/// Set one per client in ``ClientConfiguration/retry`` and override it per operation with
/// ``OperationMetadata/retry``. Only requests that are safe to repeat are retried: GET, HEAD,
/// PUT, DELETE and OPTIONS, and POST or PATCH when the operation is marked idempotent or the
/// request carries an idempotency key. A `429 Too Many Requests` is retried whatever the method
/// (when the policy retries 429): the server refused the request without acting on it.
///
/// The wait before retry *n* (n = 1 for the first retry) is
/// `min(backoff(n), maxDelay) + jitter`, unless the response carries a usable `Retry-After`,
/// which replaces it exactly (no jitter).
public struct RetryPolicy: Sendable, Hashable {
    /// How the wait grows from one retry to the next.
    public enum Backoff: String, Sendable, Hashable, Codable {
        /// `base · 2^(n-1)`.
        case exponential
        /// `base · n`.
        case linear
        /// `base`.
        case constant
    }

    /// Randomness added to each computed wait, so many clients do not retry in lockstep.
    public enum Jitter: Sendable, Hashable {
        /// No randomness: waits are exactly the backoff.
        case none
        /// A random amount between zero and the given maximum is added.
        case additive(max: Duration)
        /// The wait is a random amount between zero and the backoff ("full jitter").
        case full
    }

    /// Attempts in total, the first included; 0 and 1 both mean "never retry".
    public var maxAttempts: Int
    /// The first retry's wait before jitter.
    public var baseDelay: Duration
    /// How waits grow.
    public var backoff: Backoff
    /// The longest computed wait, before jitter.
    public var maxDelay: Duration
    /// Randomness added to computed waits.
    public var jitter: Jitter
    /// Response statuses that are retried.
    public var retryableStatuses: Set<Int>
    /// Whether network failures (refused, reset, timed out) are retried.
    public var retriesNetworkErrors: Bool
    /// The longest `Retry-After` the client will wait; a longer request fails the call at once
    /// with `rate_limit` carrying the requested wait.
    public var maxRetryAfter: Duration

    /// Creates a policy; the defaults retry 429 and 503 up to 3 attempts, waiting 1 s then 2 s
    /// plus up to 100 ms of jitter.
    public init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .seconds(1),
        backoff: Backoff = .exponential,
        maxDelay: Duration = .seconds(30),
        jitter: Jitter = .additive(max: .milliseconds(100)),
        retryableStatuses: Set<Int> = [429, 503],
        retriesNetworkErrors: Bool = true,
        maxRetryAfter: Duration = .seconds(60)
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.backoff = backoff
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.retryableStatuses = retryableStatuses
        self.retriesNetworkErrors = retriesNetworkErrors
        self.maxRetryAfter = maxRetryAfter
    }

    /// The default policy.
    public static let `default` = RetryPolicy()
    /// Never retry.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// Whether this policy ever retries.
    public var retries: Bool { maxAttempts > 1 }

    /// The computed wait before retry `retry` (1 for the first retry), jitter included.
    ///
    /// Arithmetic saturates at ``maxDelay``: retry 64 or 10,000 gives the ceiling, never an
    /// overflow.
    public func delay(
        forRetry retry: Int,
        using generator: inout some RandomNumberGenerator
    ) -> Duration {
        let base = max(baseDelay.seconds, 0)
        let ceiling = max(maxDelay.seconds, 0)
        let n = Double(max(retry, 1))
        let raw: Double
        switch backoff {
        case .exponential: raw = base * pow2(n - 1)
        case .linear: raw = base * n
        case .constant: raw = base
        }
        let capped = raw.isFinite ? min(raw, ceiling) : ceiling
        switch jitter {
        case .none:
            return .seconds(capped)
        case .additive(let maxJitter):
            let jitterSeconds = max(maxJitter.seconds, 0)
            let extra = jitterSeconds > 0 ? Double.random(in: 0...jitterSeconds, using: &generator) : 0
            return .seconds(capped + extra)
        case .full:
            return .seconds(capped > 0 ? Double.random(in: 0...capped, using: &generator) : 0)
        }
    }

    /// The computed wait with the system's random numbers.
    public func delay(forRetry retry: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(forRetry: retry, using: &generator)
    }

    private func pow2(_ exponent: Double) -> Double {
        // 2^1024 is infinite in Double; the cap above handles it.
        exponent > 1023 ? .infinity : Double(sign: .plus, exponent: Int(exponent), significand: 1)
    }
}
