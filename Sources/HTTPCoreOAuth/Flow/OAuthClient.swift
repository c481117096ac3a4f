public import Foundation
public import HTTPCore

/// Signs a user in with OAuth 2 and keeps their tokens fresh: the authorization-code grant with
/// PKCE, the device grant (RFC 8628), and refresh, against one authorization server.
///
/// Each step is its own call, so an app composes them around its own browser step:
///
/// ```swift
/// let oauth = OAuthClient(
///     registration: OAuthClientRegistration(clientID: "my-app", redirectURI: URL(string: "myapp://signed-in")!),
///     server: server,
///     network: OAuthNetwork(userAgent: "MyApp (me@example.com)")
/// )
/// let request = try oauth.authorizationRequest()
/// let callback = try await openInBrowser(request.url)     // ASWebAuthenticationSession, …
/// let credentials = try await oauth.exchange(callback: callback, for: request)
///
/// let auth = oauth.refreshingAuth(credentials: credentials, store: FileCredentialStore(url: file))
/// let api = try Client(configuration: ClientConfiguration(baseURL: apiURL, auth: auth))
/// ```
///
/// A command-line tool uses a loopback redirect listener (an ``AuthorizationRedirectReceiver``)
/// as its browser step, or the device grant (``deviceSignIn(scope:resource:onUpdate:)``) where no
/// browser can reach it.
public struct OAuthClient: Sendable {
    /// The app's registration.
    public var registration: OAuthClientRegistration
    /// The server's endpoints and token request style.
    public var server: AuthorizationServer
    /// Transport, clock, `User-Agent` and hooks.
    public var network: OAuthNetwork

    /// Creates a client.
    public init(
        registration: OAuthClientRegistration,
        server: AuthorizationServer,
        network: OAuthNetwork = OAuthNetwork()
    ) {
        self.registration = registration
        self.server = server
        self.network = network
    }

    var tokenEndpoint: TokenEndpoint { TokenEndpoint(server: server, client: registration) }

    // MARK: Authorization code

    /// A new sign-in: fresh `state` and PKCE, and the URL to open in a browser.
    ///
    /// - Parameters:
    ///   - redirectURI: Where the browser comes back; the registration's when `nil` (a loopback
    ///     listener passes the one it is listening on).
    ///   - scope: Space-separated scopes, if the provider uses them.
    ///   - resource: An RFC 8707 resource indicator to bind the tokens to.
    ///   - additionalParameters: Provider-specific parameters, appended last.
    /// - Throws: ``DiscoveryError`` `capabilityUnavailable` when the server has no authorization
    ///   endpoint; ``APIError/usage(_:)`` when it is not https (loopback aside), there is no
    ///   redirect URI, or the redirect URI is plain http to another machine.
    public func authorizationRequest(
        redirectURI: URL? = nil,
        scope: String? = nil,
        resource: String? = nil,
        additionalParameters: [OAuthParameter] = []
    ) throws -> AuthorizationRequest {
        let endpoint = try server.endpoint(for: .authorizationCode)
        try URLPolicy.checkedTarget(endpoint)
        guard let redirect = redirectURI ?? registration.redirectURI else {
            throw APIError.usage(
                "No redirect URI: pass one or set it on the client registration.",
                hint: "Use the redirect URI registered with the provider."
            )
        }
        if server.tokenRequestStyle.refreshSendsRedirectURI, redirect != registration.redirectURI {
            // Every refresh repeats the registration's URI, which must be the one the code was
            // issued for: found here rather than by a refused refresh two weeks on.
            throw APIError.usage(
                "This server wants the sign-in's redirect URI again on every refresh, so it must be the client "
                    + "registration's redirect URI.",
                hint: "Set OAuthClientRegistration.redirectURI to the redirect URI registered with the provider."
            )
        }
        if redirect.scheme?.lowercased() == "http", !URLPolicy.isLoopback(host: redirect.host ?? "") {
            throw APIError.usage(
                "A plain-http redirect URI must be a loopback address (127.0.0.1, [::1] or localhost).",
                hint: "Use https, an app's own scheme, or a loopback redirect."
            )
        }
        let state = SecureRandom.token()
        let pkce = PKCE()
        var parameters = [OAuthParameter("response_type", "code")]
        if let extra = server.tokenRequestStyle.authorizationParameter { parameters.append(extra) }
        parameters += [
            OAuthParameter("client_id", registration.clientID),
            OAuthParameter("redirect_uri", redirect.absoluteString),
            OAuthParameter("state", state),
            OAuthParameter("code_challenge", pkce.challenge),
            OAuthParameter("code_challenge_method", PKCE.method),
        ]
        if let scope { parameters.append(OAuthParameter("scope", scope)) }
        if let resource { parameters.append(OAuthParameter("resource", resource)) }
        parameters += additionalParameters
        return AuthorizationRequest(
            url: try Self.url(endpoint, appending: parameters),
            state: state,
            pkce: pkce,
            redirectURI: redirect,
            scope: scope,
            resource: resource,
            issuer: server.issuer,
            requiresIssuer: server.sendsIssuerInResponses && server.issuer != nil
        )
    }

    /// Checks `callback` against `request` and exchanges its code: the whole return trip.
    ///
    /// - Throws: ``APIError``: what ``AuthorizationRequest/authorizationCode(from:)`` throws
    ///   (then nothing is sent), or what ``exchange(_:)`` throws.
    public func exchange(callback: URL, for request: AuthorizationRequest) async throws -> TokenCredentials {
        try await exchange(try request.authorizationCode(from: callback))
    }

    /// Exchanges an authorization code for tokens.
    ///
    /// Sends the code, the redirect URI, the PKCE verifier, any resource and the client's
    /// credentials in the server's token request style. The answer is checked strictly.
    ///
    /// - Throws: ``APIError``: `auth_required` when the code was refused (`invalid_grant`),
    ///   `usage` when the client was, `api_error` for a malformed answer or a server failure,
    ///   `network` when no answer arrived.
    public func exchange(_ code: AuthorizationCode) async throws -> TokenCredentials {
        var fields = [
            OAuthParameter("code", code.code),
            OAuthParameter("redirect_uri", code.redirectURI.absoluteString),
            OAuthParameter("code_verifier", code.codeVerifier),
        ]
        if let resource = code.resource { fields.append(OAuthParameter("resource", resource)) }
        let endpoint = tokenEndpoint
        let response = try await OAuthHTTP(network: network).send(endpoint.request(.authorizationCode, fields: fields))
        return try endpoint.credentials(
            from: response,
            grant: .authorizationCode,
            secrets: [code.code, code.codeVerifier] + (registration.clientSecret.map { [$0] } ?? [])
        )
    }

    // MARK: Refresh

    /// Refreshes `credentials` once, outside any client: fields the answer leaves out (the
    /// refresh token, scope, resource) are kept.
    ///
    /// Most apps never call this: ``refreshingAuth(credentials:store:refreshMargin:)`` refreshes
    /// when needed, once for all concurrent requests.
    ///
    /// - Throws: ``APIError``; `auth_required` when there is no refresh token or it was
    ///   refused.
    public func refresh(_ credentials: TokenCredentials) async throws -> TokenCredentials {
        try await refresher.refresh(credentials, via: OAuthHTTP(network: network)).carryingForward(from: credentials)
    }

    /// The refresher for HTTPCore's `RefreshingTokenAuth`.
    public var refresher: OAuthTokenRefresher {
        OAuthTokenRefresher(endpoint: tokenEndpoint, redirectURI: registration.redirectURI)
    }

    /// A `RefreshingTokenAuth` that refreshes through this server: once for all concurrent
    /// requests, before expiry and after a 401, coordinating with other processes through a
    /// ``HTTPCore/FileCredentialStore``.
    ///
    /// - Parameters:
    ///   - credentials: The credentials from a sign-in; `nil` loads them from `store`.
    ///   - store: Where they persist; every refresh saves there.
    ///   - refreshMargin: Refresh when the token expires within this margin (60 s).
    public func refreshingAuth(
        credentials: TokenCredentials? = nil,
        store: (any CredentialStore)? = nil,
        refreshMargin: Duration = .seconds(60)
    ) -> RefreshingTokenAuth {
        RefreshingTokenAuth(credentials: credentials, refresher: refresher, store: store, refreshMargin: refreshMargin)
    }

    /// `base` with `parameters` appended to its query, each percent-encoded.
    static func url(_ base: URL, appending parameters: [OAuthParameter]) throws -> URL {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else {
            throw APIError.usage("The authorization endpoint is not a valid URL.")
        }
        let added = parameters.map { "\(PercentEncoding.encode($0.name))=\(PercentEncoding.encode($0.value))" }
        let existing = components.percentEncodedQuery.map { [$0] } ?? []
        components.percentEncodedQuery = (existing + added).joined(separator: "&")
        guard let url = components.url else { throw APIError.usage("The authorization URL could not be built.") }
        return url
    }
}

extension OAuthClient: CustomStringConvertible, CustomReflectable {
    /// The registration (without its secret) and the token endpoint.
    public var description: String {
        "OAuthClient(registration: \(registration), tokenEndpoint: \(server.tokenEndpoint.absoluteString))"
    }
    /// The registration and server only: the network settings hold nothing worth showing.
    public var customMirror: Mirror { Mirror(self, children: ["registration": registration, "server": server]) }
}
