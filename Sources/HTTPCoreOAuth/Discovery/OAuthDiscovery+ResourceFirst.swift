public import Foundation
import HTTPCore

/// How resource-first discovery chooses among the issuers a resource advertises.
///
/// 1. An expected issuer, when given, must be advertised (otherwise discovery fails); with one,
///    discovery never falls back.
/// 2. Otherwise the advertised issuers that are not ``legacyIssuers`` are the candidates: exactly
///    one is chosen; none means the ``fallback``; two or more fail (discovery never guesses).
/// 3. The ``fallback`` is used only while nothing has been chosen: when the resource's metadata
///    could not be fetched or used, or it advertised no candidate. Once an issuer is chosen,
///    every later failure (its metadata missing, malformed, for another issuer) is final.
public struct IssuerSelection: Sendable {
    /// The issuer the caller requires, exactly as the resource advertises it.
    public var expectedIssuer: String?
    /// Issuers that do not count as a new server when advertised (an older server the
    /// fallback already describes).
    public var legacyIssuers: Set<String>
    /// The server to use while nothing has been chosen; `nil` makes those cases errors.
    public var fallback: AuthorizationServer?
    /// How the chosen server's token endpoint names grants.
    public var tokenRequestStyle: TokenRequestStyle

    /// Creates a selection.
    public init(
        expectedIssuer: String? = nil,
        legacyIssuers: Set<String> = [],
        fallback: AuthorizationServer? = nil,
        tokenRequestStyle: TokenRequestStyle = .standard
    ) {
        self.expectedIssuer = expectedIssuer
        self.legacyIssuers = legacyIssuers
        self.fallback = fallback
        self.tokenRequestStyle = tokenRequestStyle
    }
}

/// The server resource-first discovery settled on, and why.
public struct DiscoveredAuthorizationServer: Sendable {
    /// How the server was found.
    public enum Source: Sendable, Hashable {
        /// The resource advertised this issuer and its metadata checked out.
        case discovered(issuer: String)
        /// Nothing was chosen, so the fallback is used; `reason` says why, for logs.
        case fallback(reason: String)
    }

    /// The server to sign in with.
    public var server: AuthorizationServer
    /// How it was found.
    public var source: Source
    /// The resource's metadata, when it was fetched and usable.
    public var resourceMetadata: ProtectedResourceMetadata?
    /// The chosen issuer's metadata, when discovered.
    public var serverMetadata: AuthorizationServerMetadata?
}

extension OAuthDiscovery {
    /// Resource-first discovery: the resource's metadata, an issuer chosen by `selection`, and
    /// that issuer's metadata, falling back as `selection` allows.
    ///
    /// - Parameter resource: The API's address (for Basecamp, `https://3.basecampapi.com`).
    /// - Throws: ``APIError``: `usage` for a resource URL discovery refuses; `api_error` when the
    ///   expected issuer is not advertised, several candidates are, or the chosen issuer's
    ///   metadata is not usable; the resource metadata's own error when there is no fallback
    ///   (or an expected issuer); `network` and `limit_exceeded` from the fetches.
    public func discoverAuthorizationServer(
        for resource: URL,
        selection: IssuerSelection
    ) async throws -> DiscoveredAuthorizationServer {
        let resourceMetadata: ProtectedResourceMetadata
        do {
            resourceMetadata = try await protectedResourceMetadata(for: resource)
        } catch let error as APIError where error.code != .usage {
            guard selection.expectedIssuer == nil, let fallback = selection.fallback else { throw error }
            return DiscoveredAuthorizationServer(
                server: fallback,
                source: .fallback(reason: "the resource's metadata could not be used: \(error.message)")
            )
        }
        let advertised = resourceMetadata.authorizationServers ?? []
        let issuer: String
        if let expected = selection.expectedIssuer {
            guard advertised.contains(expected) else {
                throw DiscoveryError.malformed("the resource does not advertise the expected issuer \(expected)")
            }
            if selection.legacyIssuers.contains(expected), let fallback = selection.fallback {
                return DiscoveredAuthorizationServer(
                    server: fallback,
                    source: .fallback(reason: "the expected issuer is the legacy server"),
                    resourceMetadata: resourceMetadata
                )
            }
            issuer = expected
        } else {
            var candidates: [String] = []
            for server in advertised where !selection.legacyIssuers.contains(server) && !candidates.contains(server) {
                candidates.append(server)
            }
            switch candidates.count {
            case 0:
                guard let fallback = selection.fallback else {
                    throw DiscoveryError.malformed("the resource advertises no authorization server")
                }
                let reason =
                    advertised.isEmpty
                    ? "the resource advertises no authorization server"
                    : "the resource advertises only the legacy server"
                return DiscoveredAuthorizationServer(
                    server: fallback,
                    source: .fallback(reason: reason),
                    resourceMetadata: resourceMetadata
                )
            case 1:
                issuer = candidates[0]
            default:
                throw APIError.apiError(
                    APIError.Details(
                        message:
                            "Discovery failed: the resource advertises \(candidates.count) authorization servers and none was expected, so none was chosen.",
                        hint: "Name the issuer to use."
                    )
                )
            }
        }
        // Chosen: from here on every failure is final.
        let serverMetadata = try await authorizationServerMetadata(issuer: issuer)
        return DiscoveredAuthorizationServer(
            server: AuthorizationServer(metadata: serverMetadata, tokenRequestStyle: selection.tokenRequestStyle),
            source: .discovered(issuer: issuer),
            resourceMetadata: resourceMetadata,
            serverMetadata: serverMetadata
        )
    }
}
