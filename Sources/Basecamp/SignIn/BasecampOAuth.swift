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
    /// Launchpad's address, `https://launchpad.37signals.com`
    /// (``HTTPCoreOAuth/AuthorizationServer/launchpadURL``).
    public static var launchpadURL: URL { AuthorizationServer.launchpadURL }

    /// Launchpad's issuer identifier as a resource may advertise it
    /// (``HTTPCoreOAuth/AuthorizationServer/launchpadIssuer``).
    public static var launchpadIssuer: String { AuthorizationServer.launchpadIssuer }

    /// Launchpad: ``HTTPCoreOAuth/AuthorizationServer/launchpad(at:)``.
    ///
    /// - Parameter base: Launchpad's address; the sandbox's `…/launchpad` in tests.
    public static func launchpad(at base: URL = launchpadURL) -> AuthorizationServer {
        .launchpad(at: base)
    }

    /// Basecamp's issuer rule: ``HTTPCoreOAuth/IssuerSelection/basecamp(expectedIssuer:launchpad:)``.
    ///
    /// - Parameters:
    ///   - expectedIssuer: The issuer to require, if any.
    ///   - launchpad: Launchpad's address, the fallback.
    public static func issuerSelection(
        expectedIssuer: String? = nil,
        launchpad base: URL = launchpadURL
    ) -> IssuerSelection {
        .basecamp(expectedIssuer: expectedIssuer, launchpad: base)
    }

    /// The resource identifier of a Basecamp API: its origin (`https://3.basecampapi.com`), with
    /// no trailing slash, as Basecamp's resource document names it.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` when the URL has no scheme or host.
    public static func resource(for apiBaseURL: URL) throws -> String {
        guard var components = URLComponents(url: apiBaseURL, resolvingAgainstBaseURL: false),
            components.scheme != nil, components.host != nil
        else {
            throw APIError.usage("The Basecamp API URL has no host.")
        }
        components.percentEncodedPath = ""
        components.percentEncodedQuery = nil
        components.percentEncodedFragment = nil
        components.user = nil
        components.password = nil
        guard let origin = components.string else { throw APIError.usage("The Basecamp API URL is not valid.") }
        return origin
    }

    /// Resource-first discovery for a Basecamp API, falling back to Launchpad as Basecamp's
    /// rule allows.
    ///
    /// - Parameters:
    ///   - apiBaseURL: The API's address (the public one by default); its origin is the resource.
    ///   - expectedIssuer: The issuer to require, if any.
    ///   - launchpad: Launchpad's address.
    ///   - network: Transport, clock, `User-Agent`, hooks and resolver.
    ///   - allowsLoopback: For a sandbox or development server on this machine only.
    ///   - allowsPrivateNetworks: For an internal deployment on a private network only.
    /// - Throws: ``HTTPCoreOAuth/DiscoveryError`` as
    ///   ``HTTPCoreOAuth/OAuthDiscovery/discoverAuthorizationServer(for:selection:)``.
    public static func discoverAuthorizationServer(
        apiBaseURL: URL = BasecampConfig.defaultBaseURL,
        expectedIssuer: String? = nil,
        launchpad base: URL = launchpadURL,
        network: OAuthNetwork,
        allowsLoopback: Bool = false,
        allowsPrivateNetworks: Bool = false
    ) async throws -> DiscoveredAuthorizationServer {
        let discovery = OAuthDiscovery(
            network: network,
            allowsLoopback: allowsLoopback,
            allowsPrivateNetworks: allowsPrivateNetworks
        )
        return try await discovery.discoverAuthorizationServer(
            for: try resource(for: apiBaseURL),
            selection: .basecamp(expectedIssuer: expectedIssuer, launchpad: base)
        )
    }

    /// An ``HTTPCoreOAuth/OAuthClient`` for Basecamp, with the server found by
    /// ``discoverAuthorizationServer(apiBaseURL:expectedIssuer:launchpad:network:allowsLoopback:allowsPrivateNetworks:)``.
    ///
    /// - Parameters:
    ///   - registration: Your integration, from `https://launchpad.37signals.com/integrations`.
    ///   - userAgent: Your app and contact; sent on every sign-in request.
    ///   - apiBaseURL: The API's address.
    ///   - launchpad: Launchpad's address.
    ///   - transport: How requests are sent.
    ///   - timeSource: The clock; tests pass a test clock.
    ///   - allowsLoopback: For a sandbox or development server on this machine only.
    /// - Throws: ``HTTPCoreOAuth/DiscoveryError`` from discovery.
    public static func client(
        registration: OAuthClientRegistration,
        userAgent: BasecampUserAgent,
        apiBaseURL: URL = BasecampConfig.defaultBaseURL,
        launchpad base: URL = launchpadURL,
        transport: any HTTPTransport = URLSessionTransport.shared,
        timeSource: any TimeSource = SystemTimeSource(),
        allowsLoopback: Bool = false
    ) async throws -> OAuthClient {
        let network = OAuthNetwork(transport: transport, timeSource: timeSource, userAgent: userAgent.value)
        let discovered = try await discoverAuthorizationServer(
            apiBaseURL: apiBaseURL,
            launchpad: base,
            network: network,
            allowsLoopback: allowsLoopback
        )
        return OAuthClient(registration: registration, server: discovered.server, network: network)
    }
}
