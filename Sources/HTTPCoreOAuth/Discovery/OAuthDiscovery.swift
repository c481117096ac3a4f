public import Foundation
import HTTPCore

/// Finds authorization servers from metadata: RFC 9728 protected-resource metadata (which
/// servers a resource trusts) and RFC 8414 authorization-server metadata (a server's
/// endpoints), one call each, plus the resource-first orchestration built on them
/// (``discoverAuthorizationServer(for:selection:)``).
///
/// Origins are strings, as an app has them, and must be origins: `https://host[:port]`, an
/// optional `/`, nothing else (plain http only to `localhost` and loopback literals). A bad one
/// is a ``DiscoveryError`` `invalidOrigin` naming the part, thrown before anything is sent.
/// Documents are bound to what was asked code point for code point: no trailing slash is added
/// or removed.
///
/// Every fetch is guarded: the host is judged just before it (its spelling, then every address
/// its name resolves to: loopback only with ``allowsLoopback``, private networks only with
/// ``allowsPrivateNetworks``, link-local and special-purpose never), redirects are never
/// followed, the whole fetch is bounded by ``timeLimit``, and the body is capped at
/// ``maxDocumentSize`` while it streams in. The check cannot stop a name whose DNS answer changes
/// between the check and the transport's own lookup; see <doc:DiscoveryByTheLetter>.
public struct OAuthDiscovery: Sendable {
    /// Transport, clock, `User-Agent`, hooks and resolver.
    public var network: OAuthNetwork
    /// The longest one metadata fetch may take, from the request to the last byte (10 s).
    public var timeLimit: Duration
    /// The largest metadata document accepted (64 KiB).
    public var maxDocumentSize: Int
    /// Whether hosts on this machine may be fetched, over plain http too: for development
    /// servers, tests and the sandbox. Off by default.
    public var allowsLoopback: Bool
    /// Whether hosts on private networks (RFC 1918, RFC 4193, the 100.64/10 shared range) may be
    /// fetched: for an internal deployment that runs its own authorization server. Off by default.
    public var allowsPrivateNetworks: Bool

    /// Creates a discovery client.
    public init(
        network: OAuthNetwork = OAuthNetwork(),
        timeLimit: Duration = .seconds(10),
        maxDocumentSize: Int = 64 * 1024,
        allowsLoopback: Bool = false,
        allowsPrivateNetworks: Bool = false
    ) {
        self.network = network
        self.timeLimit = timeLimit
        self.maxDocumentSize = maxDocumentSize
        self.allowsLoopback = allowsLoopback
        self.allowsPrivateNetworks = allowsPrivateNetworks
    }

    var policy: AddressPolicy {
        AddressPolicy(allowsLoopback: allowsLoopback, allowsPrivateNetworks: allowsPrivateNetworks)
    }

    /// Where RFC 9728 puts a resource's metadata: `ORIGIN/.well-known/oauth-protected-resource`.
    ///
    /// - Throws: ``DiscoveryError`` `invalidOrigin` when `resource` is not an origin.
    public static func protectedResourceMetadataURL(for resource: String) throws(DiscoveryError) -> URL {
        try wellKnownURL(for: resource, name: "oauth-protected-resource")
    }

    /// Where RFC 8414 puts an issuer's metadata: `ORIGIN/.well-known/oauth-authorization-server`.
    ///
    /// - Throws: ``DiscoveryError`` `invalidOrigin` when `issuer` is not an origin.
    public static func authorizationServerMetadataURL(for issuer: String) throws(DiscoveryError) -> URL {
        try wellKnownURL(for: issuer, name: "oauth-authorization-server")
    }

    private static func wellKnownURL(for origin: String, name: String) throws(DiscoveryError) -> URL {
        guard let url = try callerOrigin(origin).wellKnownURL(name) else {
            throw DiscoveryError(.invalidOrigin(.syntax))
        }
        return url
    }

    /// `text` as an origin the caller passed, or the usage error naming its bad part.
    static func callerOrigin(_ text: String) throws(DiscoveryError) -> DiscoveryOrigin {
        do {
            return try DiscoveryOrigin(text)
        } catch {
            throw DiscoveryError(.invalidOrigin(error.part))
        }
    }

    /// Fetches a resource's RFC 9728 metadata and checks that it names `resource` exactly.
    ///
    /// - Parameter resource: The API's origin as the app has it (`https://3.basecampapi.com`);
    ///   the document's `resource` must be this very string.
    /// - Throws: ``DiscoveryError``: `invalidOrigin` (before anything is sent); `refusedAddress`;
    ///   `fetchFailed`, `redirectRefused`, `tooLarge`; `invalidMetadata`, `resourceMismatch`.
    public func protectedResourceMetadata(for resource: String) async throws -> ProtectedResourceMetadata {
        let origin = try Self.callerOrigin(resource)
        let members = try await fetch(origin, document: .protectedResource)
        return try ProtectedResourceMetadata.parse(members, expected: resource)
    }

    /// Fetches the RFC 8414 metadata of an issuer the caller names (direct discovery) and
    /// checks that it names `issuer` exactly.
    ///
    /// - Throws: ``DiscoveryError``: `invalidOrigin` (before anything is sent); `refusedAddress`;
    ///   `fetchFailed`, `redirectRefused`, `tooLarge`; `invalidMetadata`, `issuerMismatch`.
    public func authorizationServerMetadata(issuer: String) async throws -> AuthorizationServerMetadata {
        try await serverMetadata(at: try Self.callerOrigin(issuer))
    }

    /// Fetches and checks the metadata of the issuer at `origin`, and judges the addresses of
    /// the endpoints this client will send secrets to (token, device, revocation) on other hosts
    /// than the issuer's, as the issuer's own was judged.
    func serverMetadata(at origin: DiscoveryOrigin) async throws -> AuthorizationServerMetadata {
        let members = try await fetch(origin, document: .authorizationServer)
        let metadata = try AuthorizationServerMetadata.parse(members, expected: origin.text, policy: policy)
        let endpoints = [metadata.tokenEndpoint, metadata.deviceAuthorizationEndpoint, metadata.revocationEndpoint]
        var judged: Set<String> = [origin.host.lowercased()]
        for host in endpoints.compactMap({ $0?.host?.lowercased() }) where judged.insert(host).inserted {
            try await policy.check(host: host, resolver: network.resolver, document: .authorizationServer)
        }
        return metadata
    }

    /// Judges `origin`'s address, then GETs its `document` under every guard and returns the
    /// JSON object.
    func fetch(_ origin: DiscoveryOrigin, document: DiscoveryError.Document) async throws -> [String: JSONValue] {
        let name = document == .protectedResource ? "oauth-protected-resource" : "oauth-authorization-server"
        guard let url = origin.wellKnownURL(name) else { throw DiscoveryError(.invalidOrigin(.syntax)) }
        try await policy.check(host: origin.host, resolver: network.resolver, document: document)
        let http = OAuthHTTP(network: network, maxBodySize: maxDocumentSize)
        let limit = timeLimit
        let response: OAuthResponse
        do {
            response = try await withTimeLimit(
                limit,
                on: network.timeSource,
                timeout: {
                    .network(APIError.Details(message: "The fetch took longer than \(limit); gave up."))
                },
                { try await http.send(OAuthRequest(method: .get, url: url, operation: "discovery")) }
            )
        } catch let error as APIError {
            if error.code == .limitExceeded { throw DiscoveryError(.tooLarge, document: document) }
            throw DiscoveryError(.fetchFailed(status: nil), document: document, underlying: error)
        }
        switch response.status {
        case 200..<300: break
        case 300..<400: throw DiscoveryError(.redirectRefused, document: document)
        default: throw DiscoveryError(.fetchFailed(status: response.status), document: document)
        }
        // The transports stop reading at the limit; this also holds for one that does not.
        guard response.body.count <= maxDocumentSize else { throw DiscoveryError(.tooLarge, document: document) }
        guard let value = try? JSONValue(parsing: response.body), case .object(let members) = value else {
            throw DiscoveryError(.invalidMetadata(member: nil), document: document)
        }
        return members
    }
}
