public import Foundation
import HTTPCore

/// Finds authorization servers from metadata: RFC 9728 protected-resource metadata (which
/// servers a resource trusts) and RFC 8414 authorization-server metadata (a server's
/// endpoints), one call each, plus the resource-first orchestration built on them
/// (``discoverAuthorizationServer(for:selection:)``).
///
/// Discovery reads documents at URLs a server chose, so every fetch is guarded: https only
/// (plain http to a loopback host only when ``allowsLocalAddresses`` is set), hosts that
/// name this machine or a private network refused, redirects never followed, the whole fetch
/// bounded by ``timeLimit`` (not just each wait for data), and the body capped at
/// ``maxDocumentSize`` while it streams in. Identifiers are compared exactly: a document that
/// names another resource or issuer than the one asked for is refused.
///
/// Host names are judged as written: a public name that resolves to a private address is not
/// caught, since the transports resolve names themselves.
public struct OAuthDiscovery: Sendable {
    /// Transport, clock, `User-Agent` and hooks.
    public var network: OAuthNetwork
    /// The longest one metadata fetch may take, from the request to the last byte (10 s).
    public var timeLimit: Duration
    /// The largest metadata document accepted (64 KiB).
    public var maxDocumentSize: Int
    /// Whether loopback and private hosts (and plain http to loopback) are accepted: for tests
    /// and a sandbox on this machine, never for a real server.
    public var allowsLocalAddresses: Bool

    /// Creates a discovery client.
    public init(
        network: OAuthNetwork = OAuthNetwork(),
        timeLimit: Duration = .seconds(10),
        maxDocumentSize: Int = 64 * 1024,
        allowsLocalAddresses: Bool = false
    ) {
        self.network = network
        self.timeLimit = timeLimit
        self.maxDocumentSize = maxDocumentSize
        self.allowsLocalAddresses = allowsLocalAddresses
    }

    var policy: AddressPolicy { AddressPolicy(allowsLocalAddresses: allowsLocalAddresses) }

    /// The resource identifier for `url`: its origin and path, without a trailing slash,
    /// query or fragment (`https://3.basecampapi.com`).
    public static func resourceIdentifier(for url: URL) throws -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.host != nil else {
            throw APIError.usage("The resource URL has no host.")
        }
        components.query = nil
        components.fragment = nil
        while components.percentEncodedPath.hasSuffix("/") { components.percentEncodedPath.removeLast() }
        guard let text = components.string else { throw APIError.usage("The resource URL is not valid.") }
        return text
    }

    /// Where RFC 9728 puts a resource's metadata: `/.well-known/oauth-protected-resource`
    /// between the origin and the resource's path.
    public static func protectedResourceMetadataURL(for resource: String) throws -> URL {
        try wellKnownURL(for: resource, suffix: "oauth-protected-resource")
    }

    /// Where RFC 8414 puts an issuer's metadata: `/.well-known/oauth-authorization-server`
    /// between the origin and the issuer's path (for an issuer without a path, simply after it).
    public static func authorizationServerMetadataURL(for issuer: String) throws -> URL {
        try wellKnownURL(for: issuer, suffix: "oauth-authorization-server")
    }

    private static func wellKnownURL(for identifier: String, suffix: String) throws -> URL {
        guard var components = URLComponents(string: identifier), components.host != nil,
            components.query == nil, components.fragment == nil
        else {
            throw DiscoveryError.malformed("\"\(identifier.prefix(100))\" is not a URL without query or fragment")
        }
        var path = components.percentEncodedPath
        if path == "/" { path = "" }
        components.percentEncodedPath = "/.well-known/\(suffix)" + path
        guard let url = components.url else { throw DiscoveryError.malformed("no metadata URL for \"\(identifier)\"") }
        return url
    }

    /// Fetches a resource's RFC 9728 metadata and checks that it names `resource` exactly.
    ///
    /// - Parameter resource: The API's address; its identifier is
    ///   ``resourceIdentifier(for:)``.
    /// - Throws: ``APIError``: `usage` for a resource URL the policy refuses; `not_found` when
    ///   there is no document; `api_error` for a redirect, a malformed document or another
    ///   resource's; `network` when the fetch failed or outlived ``timeLimit``;
    ///   `limit_exceeded` for a document over ``maxDocumentSize``.
    public func protectedResourceMetadata(for resource: URL) async throws -> ProtectedResourceMetadata {
        let identifier = try Self.resourceIdentifier(for: resource)
        if let reason = policy.refusal(resource) {
            throw APIError.usage("Discovery refuses the resource URL: \(reason).", hint: "Use the API's https address.")
        }
        let document = try await fetch(
            try Self.protectedResourceMetadataURL(for: identifier),
            what: "protected resource metadata"
        )
        return try ProtectedResourceMetadata.parse(document, expected: identifier)
    }

    /// Fetches an issuer's RFC 8414 metadata and checks that it names `issuer` exactly.
    ///
    /// - Throws: ``APIError``: `api_error` for an issuer the policy refuses, a redirect, a
    ///   malformed document, another issuer's, a missing token endpoint or an endpoint the
    ///   policy refuses; otherwise as ``protectedResourceMetadata(for:)``.
    public func authorizationServerMetadata(issuer: String) async throws -> AuthorizationServerMetadata {
        guard let issuerURL = URL(string: issuer) else { throw DiscoveryError.malformed("the issuer is not a URL") }
        if let reason = policy.refusal(issuerURL) { throw DiscoveryError.malformed("the issuer is refused: \(reason)") }
        let document = try await fetch(
            try Self.authorizationServerMetadataURL(for: issuer),
            what: "authorization server metadata"
        )
        return try AuthorizationServerMetadata.parse(document, expected: issuer, policy: policy)
    }

    /// GETs `url` under every guard and returns its JSON object.
    func fetch(_ url: URL, what: String) async throws -> [String: JSONValue] {
        if let reason = policy.refusal(url) { throw DiscoveryError.malformed("the \(what) URL is refused: \(reason)") }
        let http = OAuthHTTP(network: network, maxBodySize: maxDocumentSize)
        let host = url.host ?? "the server"
        let limit = timeLimit
        let response = try await withTimeLimit(
            limit,
            on: network.timeSource,
            timeout: {
                .network(
                    APIError.Details(
                        message: "Fetching the \(what) from \(host) took longer than \(limit); gave up.",
                        hint: "Try again later."
                    )
                )
            },
            { try await http.send(OAuthRequest(method: .get, url: url, operation: "discovery")) }
        )
        switch response.status {
        case 200:
            break
        case 300..<400:
            throw DiscoveryError.malformed(
                "\(host) answered the \(what) request with a redirect, which is never followed"
            )
        case 404:
            throw APIError.notFound(APIError.Details(message: "\(host) publishes no \(what).", httpStatus: 404))
        default:
            throw APIError.apiError(
                APIError.Details(
                    message: "\(host) answered the \(what) request with HTTP \(response.status).",
                    httpStatus: response.status
                )
            )
        }
        // The transports stop reading at the limit; this also holds for one that does not.
        guard response.body.count <= maxDocumentSize else {
            throw APIError.limitExceeded(
                APIError.Details(message: "The \(what) from \(host) is larger than \(maxDocumentSize) bytes.")
            )
        }
        guard let value = try? JSONValue(parsing: response.body), case .object(let members) = value else {
            throw DiscoveryError.malformed("the \(what) from \(host) is not a JSON object")
        }
        return members
    }
}
