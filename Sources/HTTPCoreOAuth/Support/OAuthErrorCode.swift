public import HTTPCore

/// An OAuth 2 error code (RFC 6749 §4.1.2.1 and §5.2, RFC 8628 §3.5), as a server sent it.
///
/// Errors the sign-in flows throw are ``HTTPCore/APIError``s; when a server named an OAuth
/// error, ``HTTPCore/APIError/oauthErrorCode`` gives it back typed:
///
/// ```swift
/// do {
///     tokens = try await oauth.exchange(callback: url, for: request)
/// } catch let error as APIError where error.oauthErrorCode == .accessDenied {
///     print("You declined; nothing was changed.")
/// }
/// ```
public struct OAuthErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code as sent, e.g. `invalid_grant`.
    public let rawValue: String

    /// Wraps a code.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The code.
    public var description: String { rawValue }

    /// The user (or the server on their behalf) declined.
    public static let accessDenied = OAuthErrorCode(rawValue: "access_denied")
    /// The code, refresh token or device code is invalid, expired, spent or revoked.
    public static let invalidGrant = OAuthErrorCode(rawValue: "invalid_grant")
    /// The client id or secret was not accepted.
    public static let invalidClient = OAuthErrorCode(rawValue: "invalid_client")
    /// A parameter is missing, repeated or malformed.
    public static let invalidRequest = OAuthErrorCode(rawValue: "invalid_request")
    /// The scope asked for is unknown or not allowed.
    public static let invalidScope = OAuthErrorCode(rawValue: "invalid_scope")
    /// This client may not use this grant.
    public static let unauthorizedClient = OAuthErrorCode(rawValue: "unauthorized_client")
    /// The server does not support the grant type.
    public static let unsupportedGrantType = OAuthErrorCode(rawValue: "unsupported_grant_type")
    /// The server does not support the response type.
    public static let unsupportedResponseType = OAuthErrorCode(rawValue: "unsupported_response_type")
    /// The server failed.
    public static let serverError = OAuthErrorCode(rawValue: "server_error")
    /// The server is overloaded or down for maintenance.
    public static let temporarilyUnavailable = OAuthErrorCode(rawValue: "temporarily_unavailable")
    /// Device flow: the user has not finished yet; keep polling.
    public static let authorizationPending = OAuthErrorCode(rawValue: "authorization_pending")
    /// Device flow: poll less often (5 s more, from now on).
    public static let slowDown = OAuthErrorCode(rawValue: "slow_down")
    /// Device flow: the device code expired before the user finished.
    public static let expiredToken = OAuthErrorCode(rawValue: "expired_token")

    /// Codes are short lowercase words joined by `_`; anything else a server sends is not
    /// repeated, since free text could quote a secret.
    init?(validating text: String) {
        guard (1...64).contains(text.count),
            text.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLowercase || $0.isNumber)) })
        else { return nil }
        self.init(rawValue: text)
    }
}

extension APIError {
    /// The OAuth error code the server sent, for errors from the sign-in flows; `nil` for
    /// others.
    public var oauthErrorCode: OAuthErrorCode? {
        guard let raw = details.rawStatus, raw.hasPrefix(OAuthErrorCode.rawStatusPrefix) else { return nil }
        return OAuthErrorCode(rawValue: String(raw.dropFirst(OAuthErrorCode.rawStatusPrefix.count)))
    }
}

extension OAuthErrorCode {
    /// How a code is kept in ``HTTPCore/APIError/Details/rawStatus``, apart from other APIs'
    /// statuses.
    static let rawStatusPrefix = "oauth:"
}
