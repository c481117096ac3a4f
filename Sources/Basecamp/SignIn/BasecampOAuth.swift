public import Foundation
public import HTTPCore
public import HTTPCoreOAuth

/// Signing in to Basecamp: Launchpad today, the resource-first server as Basecamp moves to it,
/// and the rule that picks between them.
///
/// An app writes a few lines:
///
/// ```swift
/// let agent = try BasecampUserAgent(app: "Acme Reports", contact: "ops@acme.example")
/// let registration = OAuthClientRegistration(
///     clientID: "…", clientSecret: "…", redirectURI: URL(string: "https://acme.example/basecamp/callback")!)
///
/// let oauth = try await BasecampOAuth.client(registration: registration, userAgent: agent)  // discovers the server
/// let request = try oauth.authorizationRequest()
/// // … send the browser to request.url, receive the callback URL …
/// let credentials = try await oauth.exchange(callback: callbackURL, for: request)
///
/// let basecamp = try BasecampClient(
///     auth: oauth.refreshingAuth(credentials: credentials, store: FileCredentialStore(url: tokenFile)),
///     userAgent: agent.value)
/// let accounts = try await basecamp.accounts()
/// ```
public enum BasecampOAuth {
    /// Launchpad's address, `https://launchpad.37signals.com`.
    public static var launchpadURL: URL { launchpad }

    /// Launchpad's issuer identifier as a resource may advertise it.
    public static let launchpadIssuer = "https://launchpad.37signals.com"

    /// Launchpad: `/authorization/new` and `/authorization/token`, with the drafts' spelling
    /// (`type=web_server`, `type=refresh`) and `redirect_uri` repeated on refresh.
    ///
    /// - Parameter base: Launchpad's address; the sandbox's `…/launchpad` in tests.
    public static func launchpad(at base: URL = launchpadURL) -> AuthorizationServer {
        let root = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
        return AuthorizationServer(
            authorizationEndpoint: URL(string: root + "/authorization/new"),
            tokenEndpoint: URL(string: root + "/authorization/token") ?? base,
            tokenRequestStyle: .legacyType
        )
    }

    /// Basecamp's issuer rule: the expected issuer if given; otherwise the one advertised
    /// issuer that is not Launchpad; none means Launchpad; two or more is an error.
    ///
    /// - Parameters:
    ///   - expectedIssuer: The issuer to require, if any.
    ///   - launchpad: Launchpad's address, the fallback.
    public static func issuerSelection(
        expectedIssuer: String? = nil,
        launchpad base: URL = launchpadURL
    ) -> IssuerSelection {
        let root = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
        return IssuerSelection(
            expectedIssuer: expectedIssuer,
            legacyIssuers: [launchpadIssuer, launchpadIssuer + "/", root, root + "/"],
            fallback: launchpad(at: base),
            tokenRequestStyle: .standard
        )
    }

    /// The resource identifier of a Basecamp API: its origin (`https://3.basecampapi.com`).
    public static func resource(for apiBaseURL: URL) throws -> URL {
        guard var components = URLComponents(url: apiBaseURL, resolvingAgainstBaseURL: false), components.host != nil
        else {
            throw APIError.usage("The Basecamp API URL has no host.")
        }
        components.path = ""
        components.query = nil
        components.fragment = nil
        guard let origin = components.url else { throw APIError.usage("The Basecamp API URL is not valid.") }
        return origin
    }

    /// Resource-first discovery for a Basecamp API, falling back to Launchpad as Basecamp's
    /// rule allows.
    ///
    /// - Parameters:
    ///   - apiBaseURL: The API's address (the public one by default).
    ///   - expectedIssuer: The issuer to require, if any.
    ///   - launchpad: Launchpad's address.
    ///   - network: Transport, clock, `User-Agent` and hooks.
    ///   - allowsLocalAddresses: For a sandbox on this machine only.
    /// - Throws: ``HTTPCore/APIError`` as ``HTTPCoreOAuth/OAuthDiscovery/discoverAuthorizationServer(for:selection:)``.
    public static func discoverAuthorizationServer(
        apiBaseURL: URL = BasecampConfig.defaultBaseURL,
        expectedIssuer: String? = nil,
        launchpad base: URL = launchpadURL,
        network: OAuthNetwork,
        allowsLocalAddresses: Bool = false
    ) async throws -> DiscoveredAuthorizationServer {
        let discovery = OAuthDiscovery(network: network, allowsLocalAddresses: allowsLocalAddresses)
        return try await discovery.discoverAuthorizationServer(
            for: try resource(for: apiBaseURL),
            selection: issuerSelection(expectedIssuer: expectedIssuer, launchpad: base)
        )
    }

    /// An ``HTTPCoreOAuth/OAuthClient`` for Basecamp, with the server found by
    /// ``discoverAuthorizationServer(apiBaseURL:expectedIssuer:launchpad:network:allowsLocalAddresses:)``.
    ///
    /// - Parameters:
    ///   - registration: Your integration, from `https://launchpad.37signals.com/integrations`.
    ///   - userAgent: Your app and contact; sent on every sign-in request.
    ///   - apiBaseURL: The API's address.
    ///   - launchpad: Launchpad's address.
    ///   - transport: How requests are sent.
    ///   - timeSource: The clock; tests pass a test clock.
    ///   - allowsLocalAddresses: For a sandbox on this machine only.
    /// - Throws: ``HTTPCore/APIError`` from discovery.
    public static func client(
        registration: OAuthClientRegistration,
        userAgent: BasecampUserAgent,
        apiBaseURL: URL = BasecampConfig.defaultBaseURL,
        launchpad base: URL = launchpadURL,
        transport: any HTTPTransport = URLSessionTransport.shared,
        timeSource: any TimeSource = SystemTimeSource(),
        allowsLocalAddresses: Bool = false
    ) async throws -> OAuthClient {
        let network = OAuthNetwork(transport: transport, timeSource: timeSource, userAgent: userAgent.value)
        let discovered = try await discoverAuthorizationServer(
            apiBaseURL: apiBaseURL,
            launchpad: base,
            network: network,
            allowsLocalAddresses: allowsLocalAddresses
        )
        return OAuthClient(registration: registration, server: discovered.server, network: network)
    }

    private static var launchpad: URL {
        var components = URLComponents()
        components.scheme = "https"
        components.host = "launchpad.37signals.com"
        return components.url ?? URL(fileURLWithPath: "/")
    }
}
