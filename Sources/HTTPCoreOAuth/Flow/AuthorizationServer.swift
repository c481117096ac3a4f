public import Foundation

/// Where an authorization server's endpoints are, and how its token endpoint spells grants.
///
/// Write one by hand for a provider you know, take one from discovery
/// (``init(metadata:tokenRequestStyle:)``), or use a preset an SDK ships (the Basecamp SDK's
/// Launchpad and resource-first servers).
public struct AuthorizationServer: Sendable, Hashable {
    /// The issuer identifier, when known (from discovery); an authorization response's `iss`
    /// parameter is checked against it.
    public var issuer: String?
    /// Where the browser is sent to approve the app; `nil` when the server offers no
    /// authorization-code grant.
    public var authorizationEndpoint: URL?
    /// Where codes, refresh tokens and device codes are exchanged for tokens.
    public var tokenEndpoint: URL
    /// RFC 8628's device authorization endpoint; `nil` when the server offers no device grant.
    public var deviceAuthorizationEndpoint: URL?
    /// How the token endpoint names grants.
    public var tokenRequestStyle: TokenRequestStyle
    /// The grant types the server says it supports, when it says.
    public var grantTypesSupported: [String]?
    /// Whether every authorization response carries `iss` (RFC 9207): a callback without one is
    /// then refused, as a mix-up attack's would be.
    public var sendsIssuerInResponses: Bool

    /// Creates a description of a server.
    public init(
        issuer: String? = nil,
        authorizationEndpoint: URL?,
        tokenEndpoint: URL,
        deviceAuthorizationEndpoint: URL? = nil,
        tokenRequestStyle: TokenRequestStyle = .standard,
        grantTypesSupported: [String]? = nil,
        sendsIssuerInResponses: Bool = false
    ) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.tokenRequestStyle = tokenRequestStyle
        self.grantTypesSupported = grantTypesSupported
        self.sendsIssuerInResponses = sendsIssuerInResponses
    }

    /// The server RFC 8414 metadata describes.
    public init(metadata: AuthorizationServerMetadata, tokenRequestStyle: TokenRequestStyle = .standard) {
        self.init(
            issuer: metadata.issuer,
            authorizationEndpoint: metadata.authorizationEndpoint,
            tokenEndpoint: metadata.tokenEndpoint,
            deviceAuthorizationEndpoint: metadata.deviceAuthorizationEndpoint,
            tokenRequestStyle: tokenRequestStyle,
            grantTypesSupported: metadata.grantTypesSupported,
            sendsIssuerInResponses: metadata.authorizationResponseIssParameterSupported
        )
    }

    /// The endpoint `capability` needs, as each grant asks for it before sending anything.
    ///
    /// - Throws: ``DiscoveryError`` `capabilityUnavailable` when the server has none (a
    ///   device-only server has no authorization endpoint).
    public func endpoint(for capability: OAuthCapability) throws(DiscoveryError) -> URL {
        let endpoint: URL?
        switch capability {
        case .authorizationCode: endpoint = authorizationEndpoint
        case .deviceAuthorization: endpoint = deviceAuthorizationEndpoint
        }
        guard let endpoint else { throw DiscoveryError(.capabilityUnavailable(capability)) }
        return endpoint
    }

    /// Whether the server offers the device grant: it has the endpoint and, when it lists its
    /// grant types, lists the device code one.
    public var supportsDeviceGrant: Bool {
        guard deviceAuthorizationEndpoint != nil else { return false }
        return grantTypesSupported.map { $0.contains(TokenRequestStyle.deviceCodeGrantType) } ?? true
    }
}

/// How a token endpoint names its grants: the standard `grant_type=…` (RFC 6749), or the
/// `type=web_server` / `type=refresh` of the OAuth 2 drafts that some servers, Launchpad among
/// them, still speak.
public struct TokenRequestStyle: Sendable, Hashable {
    /// The form field that names the code grant and its value.
    public var authorizationCodeGrant: OAuthParameter
    /// The form field that names the refresh grant and its value.
    public var refreshGrant: OAuthParameter
    /// Added to the authorization URL besides `response_type=code` (`type=web_server` in the
    /// drafts); `nil` adds nothing.
    public var authorizationParameter: OAuthParameter?
    /// Whether a refresh repeats `redirect_uri`, as the drafts' servers want.
    public var refreshSendsRedirectURI: Bool

    /// Creates a style.
    public init(
        authorizationCodeGrant: OAuthParameter,
        refreshGrant: OAuthParameter,
        authorizationParameter: OAuthParameter? = nil,
        refreshSendsRedirectURI: Bool = false
    ) {
        self.authorizationCodeGrant = authorizationCodeGrant
        self.refreshGrant = refreshGrant
        self.authorizationParameter = authorizationParameter
        self.refreshSendsRedirectURI = refreshSendsRedirectURI
    }

    /// RFC 6749: `grant_type=authorization_code` and `grant_type=refresh_token`.
    public static let standard = TokenRequestStyle(
        authorizationCodeGrant: OAuthParameter("grant_type", "authorization_code"),
        refreshGrant: OAuthParameter("grant_type", "refresh_token")
    )

    /// The drafts' spelling: `type=web_server` (also on the authorization URL) and
    /// `type=refresh`, with `redirect_uri` repeated on refresh.
    public static let legacyType = TokenRequestStyle(
        authorizationCodeGrant: OAuthParameter("type", "web_server"),
        refreshGrant: OAuthParameter("type", "refresh"),
        authorizationParameter: OAuthParameter("type", "web_server"),
        refreshSendsRedirectURI: true
    )

    /// RFC 8628's grant type, the same in every style.
    public static let deviceCodeGrantType = "urn:ietf:params:oauth:grant-type:device_code"
}

/// One form or query parameter: a name and its value.
public struct OAuthParameter: Sendable, Hashable {
    /// The name.
    public var name: String
    /// The value.
    public var value: String

    /// Creates a parameter.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
