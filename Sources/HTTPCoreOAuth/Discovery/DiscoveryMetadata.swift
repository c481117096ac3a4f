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

    /// Reads a document, requiring `resource` to equal `expected` character for character.
    static func parse(_ members: [String: JSONValue], expected: String) throws -> ProtectedResourceMetadata {
        guard case .string(let resource)? = members["resource"] else {
            throw DiscoveryError.malformed("the protected resource metadata has no `resource`")
        }
        guard resource == expected else {
            throw DiscoveryError.malformed(
                "the protected resource metadata names another resource (\"\(resource.prefix(100))\", not \"\(expected)\")"
            )
        }
        var servers: [String]?
        switch members["authorization_servers"] {
        case nil, .null?:
            servers = nil
        case .array(let items)?:
            servers = try items.map { item in
                guard case .string(let issuer) = item, !issuer.isEmpty else {
                    throw DiscoveryError.malformed("`authorization_servers` holds something other than issuer URLs")
                }
                return issuer
            }
        default:
            throw DiscoveryError.malformed("`authorization_servers` is not a list")
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

    /// Creates metadata.
    public init(
        issuer: String,
        authorizationEndpoint: URL? = nil,
        tokenEndpoint: URL,
        deviceAuthorizationEndpoint: URL? = nil,
        revocationEndpoint: URL? = nil,
        grantTypesSupported: [String]? = nil,
        codeChallengeMethodsSupported: [String]? = nil,
        scopesSupported: [String]? = nil
    ) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.grantTypesSupported = grantTypesSupported
        self.codeChallengeMethodsSupported = codeChallengeMethodsSupported
        self.scopesSupported = scopesSupported
    }

    /// Reads a document: `issuer` must equal `expected` exactly, `token_endpoint` must be
    /// there, and every endpoint present must be a non-empty URL the policy accepts.
    static func parse(
        _ members: [String: JSONValue],
        expected: String,
        policy: AddressPolicy
    ) throws -> AuthorizationServerMetadata {
        guard case .string(let issuer)? = members["issuer"] else {
            throw DiscoveryError.malformed("the authorization server metadata has no `issuer`")
        }
        guard issuer == expected else {
            throw DiscoveryError.malformed(
                "the authorization server metadata names another issuer (\"\(issuer.prefix(100))\", not \"\(expected)\")"
            )
        }
        func endpoint(_ name: String) throws -> URL? {
            switch members[name] {
            case nil, .null?:
                return nil
            case .string(let text)? where !text.isEmpty:
                guard let url = URL(string: text) else { throw DiscoveryError.malformed("`\(name)` is not a URL") }
                if let reason = policy.refusal(url) {
                    throw DiscoveryError.malformed("`\(name)` is refused: \(reason)")
                }
                return url
            default:
                throw DiscoveryError.malformed("`\(name)` is empty or not a string")
            }
        }
        func strings(_ name: String) throws -> [String]? {
            switch members[name] {
            case nil, .null?: return nil
            case .array(let items)?:
                return try items.map {
                    guard case .string(let text) = $0 else {
                        throw DiscoveryError.malformed("`\(name)` is not a list of strings")
                    }
                    return text
                }
            default: throw DiscoveryError.malformed("`\(name)` is not a list")
            }
        }
        guard let token = try endpoint("token_endpoint") else {
            throw DiscoveryError.malformed("the authorization server metadata has no `token_endpoint`")
        }
        return AuthorizationServerMetadata(
            issuer: issuer,
            authorizationEndpoint: try endpoint("authorization_endpoint"),
            tokenEndpoint: token,
            deviceAuthorizationEndpoint: try endpoint("device_authorization_endpoint"),
            revocationEndpoint: try endpoint("revocation_endpoint"),
            grantTypesSupported: try strings("grant_types_supported"),
            codeChallengeMethodsSupported: try strings("code_challenge_methods_supported"),
            scopesSupported: try strings("scopes_supported")
        )
    }
}

/// The errors discovery makes from what it finds.
enum DiscoveryError {
    static func malformed(_ problem: String) -> APIError {
        .apiError(
            APIError.Details(
                message: "Discovery failed: \(problem).",
                hint: "The server's OAuth metadata is not usable; report it to the provider."
            )
        )
    }
}
