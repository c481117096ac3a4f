public import HTTPCore

/// How an ``OAuthClient`` or ``OAuthDiscovery`` reaches the network: transport, clock,
/// `User-Agent`, hooks, limits and the resolver discovery judges addresses with.
///
/// Every OAuth request goes through an HTTPCore client with these settings, so hooks see it
/// (with `code`, `code_verifier`, `client_secret`, `device_code` and tokens redacted), and it is
/// never retried and never follows a redirect: a token endpoint that redirects is refused.
///
/// ```swift
/// let network = OAuthNetwork(userAgent: "MyApp (me@example.com)")
/// ```
public struct OAuthNetwork: Sendable {
    /// How requests are sent; URLSession by default.
    public var transport: any HTTPTransport
    /// The clock for expiry, device-flow polling and time limits; tests pass a test clock.
    public var timeSource: any TimeSource
    /// The `User-Agent` header; some providers (Basecamp's) require one naming the app and a
    /// contact.
    public var userAgent: String?
    /// Observers of every OAuth request.
    public var hooks: any Hooks
    /// How long one request may wait for the server without receiving anything.
    public var timeout: Duration
    /// The largest answer accepted from a token or device endpoint (64 KiB by default; token
    /// answers are a few hundred bytes).
    public var maxResponseBodySize: Int
    /// How discovery turns a host name into addresses to judge before it fetches; tests pass one
    /// that maps names to chosen addresses.
    public var resolver: any HostResolver

    /// Creates network settings.
    public init(
        transport: any HTTPTransport = URLSessionTransport.shared,
        timeSource: any TimeSource = SystemTimeSource(),
        userAgent: String? = nil,
        hooks: any Hooks = NoopHooks(),
        timeout: Duration = .seconds(30),
        maxResponseBodySize: Int = 64 * 1024,
        resolver: any HostResolver = SystemHostResolver()
    ) {
        self.transport = transport
        self.timeSource = timeSource
        self.userAgent = userAgent
        self.hooks = hooks
        self.timeout = timeout
        self.maxResponseBodySize = maxResponseBodySize
        self.resolver = resolver
    }
}
