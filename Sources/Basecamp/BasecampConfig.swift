import Foundation
import HTTPCore

/// Settings for a ``BasecampClient``.
///
/// The defaults suit the public Basecamp service; every value can also come from the
/// environment with ``fromEnvironment(_:)``.
///
/// ```swift
/// var config = BasecampConfig()
/// config.maxPages = 20
/// let client = try BasecampClient(accessToken: token, userAgent: "MyApp (me@example.com)", config: config)
/// ```
public struct BasecampConfig: Sendable {
    /// The API's address, without the account id (default `https://3.basecampapi.com`).
    public var baseURL: URL
    /// Whether failed calls are retried as each operation's Spec entry allows (default true).
    /// Writes that are not idempotent are never retried on an ambiguous failure either way.
    public var enableRetry: Bool
    /// Whether GET responses are cached and revalidated with ETags (default false, so private
    /// data is never stored unless asked for).
    public var enableCache: Bool
    /// The most pages one `list` call fetches (default 10,000); the result's
    /// `meta.truncated` tells when the limit cut the list short.
    public var maxPages: Int
    /// How long one attempt may wait for the server, in seconds (default 30; at most a day,
    /// ``longestTimeout``).
    public var timeoutInterval: TimeInterval
    /// Caps the retries of every operation (0 never retries): it can lower the attempts the Spec
    /// gives an operation, never raise them. `nil`, the default, uses the Spec's attempts.
    public var maxRetries: Int?
    /// The cache used when ``enableCache`` is on; `nil` creates an in-memory cache.
    public var cache: ResponseCache?
    /// The largest body a call holds in memory, a download into `Data` included, in bytes
    /// (default 100 MiB). A download to a file streams to disk and is not capped by it.
    public var maxDownloadSize: Int
    /// Replaces every operation's Spec retry policy (attempts, waits, retried statuses) when
    /// set; `nil`, the default, keeps each operation's own. ``enableRetry`` and ``maxRetries``
    /// still apply on top. Writes that are not idempotent are still never repeated once they
    /// may have been sent.
    public var retryPolicy: RetryPolicy?
    /// How much retrying may add to the client's traffic (default: 20% more requests over 10 s,
    /// and at least 10 retries); `nil` removes the limit, for a client that must ride out a high
    /// failure rate rather than protect a struggling server.
    public var retryBudget: RetryBudget?
    /// Holds the client to Basecamp's rate limit per account before it sends, so it waits its
    /// turn rather than collecting 429s: `TokenBucketRateLimiter(.basecamp)` for one process, or
    /// a fleet-wide limiter shared by every worker on the account. `nil`, the default, sends as
    /// fast as callers ask and relies on retrying 429s.
    public var rateLimiter: (any RateLimiter)?

    /// The public Basecamp 3 API address, `https://3.basecampapi.com`.
    public static var defaultBaseURL: URL { publicAPI }

    /// Creates a configuration.
    public init(
        baseURL: URL? = nil,
        enableRetry: Bool = true,
        enableCache: Bool = false,
        maxPages: Int = 10_000,
        timeoutInterval: TimeInterval = 30,
        maxRetries: Int? = nil,
        cache: ResponseCache? = nil,
        maxDownloadSize: Int = 100 * 1024 * 1024,
        retryPolicy: RetryPolicy? = nil,
        retryBudget: RetryBudget? = RetryBudget()
    ) {
        self.baseURL = baseURL ?? Self.publicAPI
        self.enableRetry = enableRetry
        self.enableCache = enableCache
        self.maxPages = maxPages
        self.timeoutInterval = timeoutInterval
        self.maxRetries = maxRetries
        self.cache = cache
        self.maxDownloadSize = maxDownloadSize
        self.retryPolicy = retryPolicy
        self.retryBudget = retryBudget
    }

    /// Reads `BASECAMP_BASE_URL`, `BASECAMP_TIMEOUT` (seconds) and `BASECAMP_MAX_RETRIES` over
    /// `base`; variables that are not set leave its values alone.
    ///
    /// - Throws: ``APIError/usage(_:)`` naming the variable when a value cannot be used.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment,
        base: BasecampConfig = BasecampConfig()
    ) throws -> BasecampConfig {
        var config = base
        if let text = nonEmpty(environment["BASECAMP_BASE_URL"]) {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "https" || scheme == "http", url.host != nil
            else {
                throw APIError.usage("BASECAMP_BASE_URL is not an http(s) URL: \"\(text.prefix(200))\".")
            }
            config.baseURL = url
        }
        if let text = nonEmpty(environment["BASECAMP_TIMEOUT"]) {
            guard let seconds = TimeInterval(text), seconds > 0, seconds <= Self.longestTimeout else {
                throw APIError.usage(
                    "BASECAMP_TIMEOUT must be a number of seconds above 0 and at most 86400, not \"\(text.prefix(40))\"."
                )
            }
            config.timeoutInterval = seconds
        }
        if let text = nonEmpty(environment["BASECAMP_MAX_RETRIES"]) {
            guard let retries = Int(text), retries >= 0 else {
                throw APIError.usage("BASECAMP_MAX_RETRIES must be a whole number ≥ 0, not \"\(text.prefix(40))\".")
            }
            config.maxRetries = retries
        }
        return config
    }

    /// The longest ``timeoutInterval``: a day.
    public static let longestTimeout: TimeInterval = 86_400

    /// `attempts` lowered to ``maxRetries`` + 1 when that is set.
    func attempts(capping attempts: Int) -> Int {
        maxRetries.map { min(attempts - 1, $0) + 1 } ?? attempts
    }

    /// `https://3.basecampapi.com`, built without a force unwrap.
    static var publicAPI: URL {
        var components = URLComponents()
        components.scheme = "https"
        components.host = "3.basecampapi.com"
        return components.url ?? URL(fileURLWithPath: "/")
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let trimmed = value?.trimmingCharacters(in: .whitespaces), !trimmed.isEmpty else { return nil }
        return trimmed
    }
}
