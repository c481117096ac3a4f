import Foundation
import HTTPCore

/// How resource-first discovery chooses among the issuers a resource advertises.
///
/// 1. An expected issuer, when given, must be advertised (otherwise discovery fails); with one,
///    discovery never falls back (unless it is itself a legacy issuer).
/// 2. Otherwise the advertised issuers that are not ``legacyIssuers`` are the candidates, each
///    counted once: exactly one is chosen; none means the ``fallback``; two or more fail (discovery never guesses).
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

extension IssuerSelection {
    /// Whether `issuer` is one of ``legacyIssuers``, code point for code point.
    func isLegacy(_ issuer: String) -> Bool {
        legacyIssuers.contains { $0.isIdentical(to: issuer) }
    }
}

/// Why resource-first discovery used the selection's fallback.
public enum FallbackReason: Sendable, Equatable {
    /// Hop 1 failed: the resource's metadata could not be fetched, was invalid or named another
    /// resource. The error says how.
    case resourceDiscoveryFailed(DiscoveryError)
    /// The resource advertised no new issuer: `authorization_servers` absent, `[]`, or only
    /// legacy issuers.
    case noAuthorizationServerAdvertised
    /// The expected issuer is a legacy one, which the fallback describes.
    case expectedLegacyIssuer
}

extension FallbackReason: CustomStringConvertible {
    /// The reason in a few words, for logs and messages; it never quotes a document.
    public var description: String {
        switch self {
        case .resourceDiscoveryFailed(let error): "resource discovery failed: \(error)"
        case .noAuthorizationServerAdvertised: "no authorization server advertised"
        case .expectedLegacyIssuer: "the expected issuer is the legacy one"
        }
    }
}

/// The server resource-first discovery settled on, and why.
public struct DiscoveredAuthorizationServer: Sendable {
    /// How the server was found.
    public enum Source: Sendable, Equatable {
        /// The resource advertised this issuer and its metadata checked out.
        case discovered(issuer: String)
        /// Nothing new was chosen, so the selection's fallback is used, for this reason.
        case fallback(FallbackReason)
    }

    /// The server to sign in with.
    public var server: AuthorizationServer
    /// How it was found.
    public var source: Source
    /// The resource's metadata, when it was fetched and usable.
    public var resourceMetadata: ProtectedResourceMetadata?
    /// The chosen issuer's metadata, when discovered.
    public var serverMetadata: AuthorizationServerMetadata?

    /// Whether the server is the selection's legacy fallback: Launchpad, with
    /// ``IssuerSelection/basecamp(expectedIssuer:launchpad:)``.
    public var isLegacyLaunchpad: Bool {
        if case .fallback = source { return true }
        return false
    }
}

extension OAuthDiscovery {
    /// Resource-first discovery: the resource's metadata, an issuer chosen by `selection`, and
    /// that issuer's metadata, falling back as `selection` allows.
    ///
    /// - Parameters:
    ///   - resource: The API's origin as the app has it (for Basecamp,
    ///     `https://3.basecampapi.com`); the resource document must name this very string.
    ///   - selection: How the issuer is chosen, and the fallback.
    /// - Throws: ``DiscoveryError``: `invalidOrigin` for a resource or expected issuer that is
    ///   not an origin, and `refusedAddress` for a resource host the policy refuses, before
    ///   anything is sent; hop 1's own error when there is no fallback (or an expected issuer);
    ///   `expectedIssuerUnavailable`, `noAuthorizationServer`, `ambiguousIssuers`,
    ///   `invalidIssuerOrigin`; once an issuer is chosen, every error of its fetch.
    public func discoverAuthorizationServer(
        for resource: String,
        selection: IssuerSelection
    ) async throws -> DiscoveredAuthorizationServer {
        let origin = try Self.callerOrigin(resource)
        if let expected = selection.expectedIssuer { _ = try Self.callerOrigin(expected) }
        let resourceMetadata: ProtectedResourceMetadata
        do {
            let members = try await fetch(origin, document: .protectedResource)
            resourceMetadata = try ProtectedResourceMetadata.parse(members, expected: resource)
        } catch let error as DiscoveryError {
            guard case .refusedAddress = error.reason else {
                guard selection.expectedIssuer == nil, let fallback = selection.fallback else { throw error }
                return DiscoveredAuthorizationServer(
                    server: fallback,
                    source: .fallback(.resourceDiscoveryFailed(error))
                )
            }
            // The caller's own resource refused: a setting to change, not a reason to go elsewhere.
            throw error
        }
        let advertised = resourceMetadata.advertisedIssuers
        let issuer: String
        if let expected = selection.expectedIssuer {
            guard advertised.contains(where: { $0.isIdentical(to: expected) }) else {
                throw DiscoveryError(.expectedIssuerUnavailable, document: .protectedResource)
            }
            if selection.isLegacy(expected), let fallback = selection.fallback {
                return DiscoveredAuthorizationServer(
                    server: fallback,
                    source: .fallback(.expectedLegacyIssuer),
                    resourceMetadata: resourceMetadata
                )
            }
            issuer = expected
        } else {
            let candidates = advertised.filter { !selection.isLegacy($0) }
            switch candidates.count {
            case 0:
                guard let fallback = selection.fallback else {
                    throw DiscoveryError(.noAuthorizationServer, document: .protectedResource)
                }
                return DiscoveredAuthorizationServer(
                    server: fallback,
                    source: .fallback(.noAuthorizationServerAdvertised),
                    resourceMetadata: resourceMetadata
                )
            case 1:
                issuer = candidates[0]
            default:
                throw DiscoveryError(.ambiguousIssuers, document: .protectedResource)
            }
        }
        // Chosen: from here on every failure is final.
        let issuerOrigin: DiscoveryOrigin
        do {
            issuerOrigin = try DiscoveryOrigin(issuer)
        } catch {
            throw DiscoveryError(.invalidIssuerOrigin(error.part), document: .protectedResource)
        }
        let serverMetadata = try await serverMetadata(at: issuerOrigin)
        return DiscoveredAuthorizationServer(
            server: AuthorizationServer(metadata: serverMetadata, tokenRequestStyle: selection.tokenRequestStyle),
            source: .discovered(issuer: issuer),
            resourceMetadata: resourceMetadata,
            serverMetadata: serverMetadata
        )
    }
}
