import Foundation
public import HTTPTypes

/// Everything a ``Client`` needs besides its transport.
public struct ClientConfiguration: Sendable {
    /// The URL every endpoint path is relative to. Must be https, except for loopback hosts;
    /// a trailing slash is ignored.
    public var baseURL: URL
    /// How long one attempt may wait for the server without receiving anything.
    public var timeout: Duration
    /// Headers sent with every request; an endpoint's own headers win.
    public var defaultHeaders: HTTPFields
    /// The `User-Agent` header; `nil` leaves the transport's default.
    public var userAgent: String?
    /// JSON key and date strategies for bodies.
    public var json: JSONCoding
    /// The largest successful response body accepted (default 50 MiB); larger fails with
    /// `limit_exceeded` before it is buffered.
    public var maxResponseBodySize: Int
    /// How much of an error response body is read (default 1 MiB); the rest is dropped.
    public var maxErrorBodySize: Int
    /// Which redirects the client follows (an operation can override it with
    /// ``OperationMetadata/redirects``); transports send one hop and never follow one themselves.
    public var redirectPolicy: RedirectPolicy
    /// Which headers and query parameters are secret.
    public var redactor: Redactor
    /// Turns the API's own error bodies into errors; `nil` uses the standard table.
    public var errorBodyDecoder: ErrorBodyDecoder?
    /// Extra middlewares, outermost first; they run inside retry, auth and the cache and outside
    /// the redirect stage, so each attempt passes through them once, credentials on (see
    /// <doc:RequestPipeline>).
    public var middlewares: [any Middleware]
    /// Middlewares that run once per call, outermost first, around everything else: the
    /// operation hooks, every attempt and wait, and decoding. They see the call's request before
    /// retry and its final answer, or the ``APIError`` the call fails with (a decoding failure
    /// included), so a tracing span or a per-call timer belongs here. Changing the answer on its
    /// way out does not change the value the call decoded.
    public var callMiddlewares: [any Middleware]
    /// Observers of every call and attempt.
    public var hooks: any Hooks
    /// The clock for durations, backoff and expiry.
    public var timeSource: any TimeSource
    /// The response header that carries the server's request id.
    public var requestIDHeader: HTTPField.Name
    /// When and how failed requests are tried again.
    public var retry: RetryPolicy
    /// How much retrying may add to the client's load; `nil` switches the limit off.
    public var retryBudget: RetryBudget?
    /// The longest one call may take, every attempt and wait included; `nil` for no limit
    /// beyond the per-attempt ``timeout``. Endpoints can override it.
    public var deadline: Duration?
    /// When set, every POST and PATCH that is not idempotent by itself gets a fresh key in
    /// this header (the same key on every attempt of one call), which makes it safe to retry.
    public var idempotencyKeyHeader: HTTPField.Name?
    /// How requests are authenticated; `nil` sends them as they are. The strategy's secret
    /// names are added to the ``redactor``.
    public var auth: (any AuthStrategy)?
    /// The HTTP cache (ETag / Last-Modified revalidation) for GET and HEAD; `nil`, the default,
    /// caches nothing, so private data is never stored unless asked for.
    public var cache: ResponseCache?
    /// How fast requests may go out: a permit from the limiter before each attempt (every retry
    /// and replay included; the hops of one attempt's redirect share its permit), and a shared
    /// pause when the server answers 429 (or 503) with a `Retry-After`. `nil`, the default, sends
    /// as fast as callers ask.
    public var rateLimit: RateLimiting?
    /// Whether the base URL (and absolute URLs such as next-page links) may be plain http to
    /// any host. Off by default: http is accepted only for loopback hosts, because credentials
    /// would travel unencrypted. Turn it on only for an API that carries no credentials and no
    /// private data, such as a public timetable feed.
    public var allowsInsecureHTTP = false
    /// The `Accept` header sent when neither ``defaultHeaders`` nor the endpoint names one
    /// (default `application/json`); `nil` sends none, for a client that fetches files rather
    /// than JSON.
    public var defaultAccept: String? = "application/json"

    /// Creates a configuration with defaults suitable for most JSON APIs.
    public init(
        baseURL: URL,
        timeout: Duration = .seconds(30),
        defaultHeaders: HTTPFields = [:],
        userAgent: String? = "swift-api-sdks HTTPCore",
        json: JSONCoding = JSONCoding(),
        maxResponseBodySize: Int = 50 * 1024 * 1024,
        maxErrorBodySize: Int = 1024 * 1024,
        redirectPolicy: RedirectPolicy = .default,
        redactor: Redactor = Redactor(),
        errorBodyDecoder: ErrorBodyDecoder? = nil,
        middlewares: [any Middleware] = [],
        callMiddlewares: [any Middleware] = [],
        hooks: any Hooks = NoopHooks(),
        timeSource: any TimeSource = SystemTimeSource(),
        requestIDHeader: HTTPField.Name = .xRequestID,
        retry: RetryPolicy = .default,
        retryBudget: RetryBudget? = RetryBudget(),
        deadline: Duration? = nil,
        idempotencyKeyHeader: HTTPField.Name? = nil,
        auth: (any AuthStrategy)? = nil,
        cache: ResponseCache? = nil,
        rateLimit: RateLimiting? = nil
    ) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.defaultHeaders = defaultHeaders
        self.userAgent = userAgent
        self.json = json
        self.maxResponseBodySize = maxResponseBodySize
        self.maxErrorBodySize = maxErrorBodySize
        self.redirectPolicy = redirectPolicy
        self.redactor = redactor
        self.errorBodyDecoder = errorBodyDecoder
        self.middlewares = middlewares
        self.callMiddlewares = callMiddlewares
        self.hooks = hooks
        self.timeSource = timeSource
        self.requestIDHeader = requestIDHeader
        self.retry = retry
        self.retryBudget = retryBudget
        self.deadline = deadline
        self.idempotencyKeyHeader = idempotencyKeyHeader
        self.auth = auth
        self.cache = cache
        self.rateLimit = rateLimit
    }
}
