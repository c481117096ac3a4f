public import Foundation
import HTTPCore

/// A protected resource's metadata (RFC 9728): which authorization servers issue tokens for it.
public struct ProtectedResourceMetadata: Sendable, Hashable {
    /// The resource identifier, equal to the one asked for.
    public var resource: String
    /// The issuers the resource accepts tokens from: `nil` when the document has no
    /// `authorization_servers`, empty when it lists none.
    public var authorizationServers: [String]?

    /// Creates metadata.
    public init(resource: String, authorizationServers: [String]?) {
        self.resource = resource
        self.authorizationServers = authorizationServers
    }

    /// The advertised issuers in order, each once: what issuer selection chooses among.
    public var advertisedIssuers: [String] {
        var seen = Set<[Unicode.Scalar]>()
        return (authorizationServers ?? []).filter { seen.insert(Array($0.unicodeScalars)).inserted }
    }

    /// Reads a document, requiring `resource` to equal `expected` code point for code point.
    ///
    /// `authorization_servers` absent is `nil`; present, it must be a list of strings: `null`, any
    /// other value or a non-string member makes the document invalid.
    static func parse(_ members: [String: JSONValue], expected: String) throws(DiscoveryError) -> Self {
        let document = DiscoveryError.Document.protectedResource
        guard case .string(let resource)? = members["resource"] else {
            throw DiscoveryError(.invalidMetadata(member: "resource"), document: document)
        }
        guard resource.isIdentical(to: expected) else {
            throw DiscoveryError(.resourceMismatch, document: document)
        }
        var servers: [String]?
        if let value = members["authorization_servers"] {
            guard case .array(let items) = value else {
                throw DiscoveryError(.invalidMetadata(member: "authorization_servers"), document: document)
            }
            servers = try items.map { item throws(DiscoveryError) in
                guard case .string(let issuer) = item else {
                    throw DiscoveryError(.invalidMetadata(member: "authorization_servers"), document: document)
                }
                return issuer
            }
        }
        return ProtectedResourceMetadata(resource: resource, authorizationServers: servers)
    }
}

/// An authorization server's metadata (RFC 8414): its issuer identifier and endpoints.
public struct AuthorizationServerMetadata: Sendable, Hashable {
    /// The issuer identifier, equal to the one asked for.
    public var issuer: String
    /// The authorization endpoint, if the server offers the code grant.
    public var authorizationEndpoint: URL?
    /// The token endpoint.
    public var tokenEndpoint: URL
    /// The device authorization endpoint (RFC 8628), if offered.
    public var deviceAuthorizationEndpoint: URL?
    /// The revocation endpoint (RFC 7009), if offered.
    public var revocationEndpoint: URL?
    /// The grant types the server lists, if it lists them.
    public var grantTypesSupported: [String]?
    /// The PKCE methods the server lists, if it lists them.
    public var codeChallengeMethodsSupported: [String]?
    /// The scopes the server lists, if it lists them.
    public var scopesSupported: [String]?
    /// Whether the server puts `iss` in every authorization response (RFC 9207), so a callback
    /// without one is refused.
    public var authorizationResponseIssParameterSupported: Bool

    /// Creates metadata.
    public init(
        issuer: String,
        authorizationEndpoint: URL? = nil,
        tokenEndpoint: URL,
        deviceAuthorizationEndpoint: URL? = nil,
        revocationEndpoint: URL? = nil,
        grantTypesSupported: [String]? = nil,
        codeChallengeMethodsSupported: [String]? = nil,
        scopesSupported: [String]? = nil,
        authorizationResponseIssParameterSupported: Bool = false
    ) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.grantTypesSupported = grantTypesSupported
        self.codeChallengeMethodsSupported = codeChallengeMethodsSupported
        self.scopesSupported = scopesSupported
        self.authorizationResponseIssParameterSupported = authorizationResponseIssParameterSupported
    }

    /// Reads a document: `issuer` must equal `expected` code point for code point,
    /// `token_endpoint` must be there, every `*_endpoint` member present (ones this type does not
    /// model included) must be a non-empty string, and the endpoints it uses URLs `policy` accepts.
    static func parse(
        _ members: [String: JSONValue],
        expected: String,
        policy: AddressPolicy
    ) throws(DiscoveryError) -> Self {
        func invalid(_ member: String) -> DiscoveryError {
            DiscoveryError(.invalidMetadata(member: member), document: .authorizationServer)
        }
        guard case .string(let issuer)? = members["issuer"] else { throw invalid("issuer") }
        guard issuer.isIdentical(to: expected) else {
            throw DiscoveryError(.issuerMismatch, document: .authorizationServer)
        }
        guard members["token_endpoint"] != nil else { throw invalid("token_endpoint") }
        let endpointMembers = members.keys.filter { $0.hasSuffix("_endpoint") }
        for name in ["token_endpoint"] + endpointMembers.sorted().filter({ $0 != "token_endpoint" }) {
            guard case .string(let text)? = members[name], !text.isEmpty else { throw invalid(name) }
        }
        func endpoint(_ name: String) throws(DiscoveryError) -> URL? {
            guard case .string(let text)? = members[name] else { return nil }
            guard let url = URL(string: text), !policy.endpointRefused(url) else { throw invalid(name) }
            return url
        }
        func strings(_ name: String) throws(DiscoveryError) -> [String]? {
            guard let value = members[name], value != .null else { return nil }
            guard case .array(let items) = value else { throw invalid(name) }
            return try items.map { item throws(DiscoveryError) in
                guard case .string(let text) = item else { throw invalid(name) }
                return text
            }
        }
        guard let token = try endpoint("token_endpoint") else { throw invalid("token_endpoint") }
        let issInResponses: Bool
        switch members["authorization_response_iss_parameter_supported"] {
        case nil, .null?: issInResponses = false
        case .bool(let value)?: issInResponses = value
        default: throw invalid("authorization_response_iss_parameter_supported")
        }
        return AuthorizationServerMetadata(
            issuer: issuer,
            authorizationEndpoint: try endpoint("authorization_endpoint"),
            tokenEndpoint: token,
            deviceAuthorizationEndpoint: try endpoint("device_authorization_endpoint"),
            revocationEndpoint: try endpoint("revocation_endpoint"),
            grantTypesSupported: try strings("grant_types_supported"),
            codeChallengeMethodsSupported: try strings("code_challenge_methods_supported"),
            scopesSupported: try strings("scopes_supported"),
            authorizationResponseIssParameterSupported: issInResponses
        )
    }
}

extension String {
    /// Equal code point for code point: Swift's `==` also equates canonically equivalent
    /// spellings (a precomposed `é` and `e` with a combining accent), which binding must not.
    func isIdentical(to other: String) -> Bool {
        unicodeScalars.elementsEqual(other.unicodeScalars)
    }
}
