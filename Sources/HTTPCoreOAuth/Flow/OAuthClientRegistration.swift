public import Foundation
import HTTPCore

/// What a provider gave you when you registered your app: its client id, a client secret for
/// confidential clients, and the redirect URI you chose.
///
/// A command-line tool or a mobile app is a public client: it cannot keep a secret, so it has
/// none and relies on PKCE. A server-side app has a secret; it is sent to the token endpoint
/// only, and printing or dumping a registration never shows it.
public struct OAuthClientRegistration: Sendable, Hashable {
    /// How a confidential client proves itself at the token endpoint.
    public enum Authentication: Sendable, Hashable {
        /// `client_id` and `client_secret` as form fields (`client_secret_post`), which every
        /// server accepts and some (Launchpad) require.
        case formFields
        /// `Authorization: Basic` with the id and secret (`client_secret_basic`), RFC 6749's
        /// default.
        case basicHeader
    }

    /// The client id.
    public var clientID: String
    /// The client secret; `nil` for a public client.
    public var clientSecret: String?
    /// The redirect URI registered with the provider; an authorization request may name
    /// another (a loopback port chosen at run time).
    public var redirectURI: URL?
    /// How the secret travels; ignored for public clients.
    public var authentication: Authentication

    /// Creates a registration.
    public init(
        clientID: String,
        clientSecret: String? = nil,
        redirectURI: URL? = nil,
        authentication: Authentication = .formFields
    ) {
        self.clientID = clientID
        self.clientSecret = clientSecret.flatMap { $0.isEmpty ? nil : $0 }
        self.redirectURI = redirectURI
        self.authentication = authentication
    }
}

extension OAuthClientRegistration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The client id and redirect URI; the secret is shown as `[REDACTED]`.
    public var description: String {
        let secret = clientSecret == nil ? "nil" : Redactor.placeholder
        return
            "OAuthClientRegistration(clientID: \(clientID), clientSecret: \(secret), redirectURI: \(redirectURI?.absoluteString ?? "nil"))"
    }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// No secret, so `dump` shows none.
    public var customMirror: Mirror {
        Mirror(self, children: ["clientID": clientID, "redirectURI": redirectURI as Any])
    }
}
