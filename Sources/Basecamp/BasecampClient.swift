import Foundation
import HTTPCore
import HTTPTypes

/// The entry point of the Basecamp SDK: holds credentials and settings, and hands out
/// ``AccountClient``s that carry every service.
///
/// ```swift
/// let basecamp = try BasecampClient(accessToken: token, userAgent: "MyApp (me@example.com)")
/// let account = try basecamp.forAccount("999999999")
/// let projects = try await account.projects.list()
/// print(projects.count, "of", projects.meta.totalCount ?? projects.count)
/// ```
///
/// A client is cheap to share between tasks; create one per set of credentials.
public final class BasecampClient: Sendable {
    /// The settings the client was created with.
    public let config: BasecampConfig
    /// The HTTPCore client every operation goes through (retry, auth, cache, hooks).
    public let http: Client
    /// The first hop of a download: credentials on, the redirect taken as the answer.
    let downloadHop: Client
    /// The second hop of a download: no credentials at all, no redirects.
    let storage: Client

    /// Creates a client that sends `accessToken` as a bearer token.
    ///
    /// - Parameters:
    ///   - accessToken: An OAuth 2 access token; it never appears in logs, errors or hooks.
    ///   - userAgent: Basecamp requires an app name and contact, e.g. `"MyApp (me@example.com)"`;
    ///     one without a contact is refused (see ``BasecampUserAgent``).
    ///   - config: Settings; the defaults talk to the public API.
    ///   - hooks: Observers of every call, attempt, retry and page.
    ///   - transport: How requests are sent; URLSession by default.
    ///   - timeSource: The clock for backoff and timing; tests pass a test clock.
    /// - Throws: ``APIError/usage(_:)`` for an empty token, a user agent without a contact, or an
    ///   unusable base URL.
    public convenience init(
        accessToken: String,
        userAgent: String,
        config: BasecampConfig = BasecampConfig(),
        hooks: any Hooks = NoopHooks(),
        transport: any HTTPTransport = URLSessionTransport.shared,
        timeSource: any TimeSource = SystemTimeSource()
    ) throws {
        guard !accessToken.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw APIError.usage("The Basecamp access token is empty.")
        }
        try self.init(
            auth: BearerTokenAuth(token: accessToken),
            userAgent: userAgent,
            config: config,
            hooks: hooks,
            transport: transport,
            timeSource: timeSource
        )
    }

    /// Creates a client that asks `tokenProvider` for the current token before each attempt
    /// (and again after a 401), for apps that refresh tokens themselves.
    ///
    /// - Throws: ``APIError/usage(_:)`` for a user agent without a contact or an unusable base URL.
    public convenience init(
        tokenProvider: any TokenProvider,
        userAgent: String,
        config: BasecampConfig = BasecampConfig(),
        hooks: any Hooks = NoopHooks(),
        transport: any HTTPTransport = URLSessionTransport.shared,
        timeSource: any TimeSource = SystemTimeSource()
    ) throws {
        try self.init(
            auth: TokenProviderAuth(tokenProvider),
            userAgent: userAgent,
            config: config,
            hooks: hooks,
            transport: transport,
            timeSource: timeSource
        )
    }

    /// Creates a client with any HTTPCore authentication strategy (for example
    /// `RefreshingTokenAuth` for OAuth refresh, as ``BasecampOAuth`` sets up).
    ///
    /// - Throws: ``APIError/usage(_:)`` for a user agent that names no contact (see
    ///   ``BasecampUserAgent``) or an unusable base URL.
    public init(
        auth: any AuthStrategy,
        userAgent: String,
        config: BasecampConfig = BasecampConfig(),
        hooks: any Hooks = NoopHooks(),
        transport: any HTTPTransport = URLSessionTransport.shared,
        timeSource: any TimeSource = SystemTimeSource()
    ) throws {
        let agent = try BasecampUserAgent(userAgent.trimmingCharacters(in: .whitespacesAndNewlines)).value
        guard config.maxPages > 0, config.timeoutInterval > 0, config.timeoutInterval <= BasecampConfig.longestTimeout,
            (config.maxRetries ?? 0) >= 0
        else {
            throw APIError.usage(
                "BasecampConfig needs maxPages > 0, a timeoutInterval above 0 and at most 86400, and maxRetries ≥ 0."
            )
        }
        self.config = config

        var base = ClientConfiguration(
            baseURL: config.baseURL,
            timeout: .milliseconds(Int64((config.timeoutInterval * 1000).rounded())),
            userAgent: agent,
            json: JSONCoding(keys: .useDefaultKeys),
            hooks: hooks,
            timeSource: timeSource,
            retry: config.enableRetry ? (config.retryPolicy ?? RetryPolicy()) : .none,
            retryBudget: config.retryBudget,
            auth: auth,
            rateLimit: config.rateLimiter.map { RateLimiting.basecamp(limiter: $0, baseURL: config.baseURL) }
        )
        var main = base
        if config.enableCache { main.cache = config.cache ?? ResponseCache() }
        self.http = try Client(configuration: main, transport: transport)

        // Downloads have clients of their own: files are larger than JSON, never cached, and
        // not JSON (no Accept). The first hop keeps the credentials and asks per call not to
        // follow the redirect; the second carries none and is never retried or redirected.
        base.maxResponseBodySize = config.maxDownloadSize
        base.defaultAccept = nil
        self.downloadHop = try Client(configuration: base, transport: transport)

        var storage = base
        storage.auth = nil
        storage.rateLimit = nil
        storage.retry = .none
        storage.redirectPolicy = .none
        storage.redactor = DownloadHop.signedURLRedactor
        storage.errorBodyDecoder = DownloadHop.storageErrors
        self.storage = try Client(configuration: storage, transport: transport)
    }

    /// A client for one account: every service, with the account id filled into each path.
    ///
    /// - Parameter accountID: The account's id, digits only (as in `https://3.basecamp.com/999999999/`).
    /// - Throws: ``APIError/usage(_:)`` when the id is not a positive decimal number.
    public func forAccount(_ accountID: String) throws -> AccountClient {
        let trimmed = accountID.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 20, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }),
            trimmed.contains(where: { $0 != "0" })
        else {
            throw APIError.usage(
                APIError.Details(
                    message: "\"\(accountID.prefix(40))\" is not a Basecamp account id.",
                    hint: "Use the digits after the host in your Basecamp URL, e.g. 999999999."
                )
            )
        }
        return AccountClient(context: AccountContext(accountID: trimmed, basecamp: self))
    }

    /// A client for one account, by numeric id.
    ///
    /// - Throws: ``APIError/usage(_:)`` when the id is not positive.
    public func forAccount(_ accountID: Int64) throws -> AccountClient {
        try forAccount(String(accountID))
    }
}
