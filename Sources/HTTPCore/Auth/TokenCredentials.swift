public import Foundation

/// An access token, the refresh token that renews it, when it expires, and what OAuth said
/// about it (token type, scope, and the RFC 8707 `resource` it is bound to).
///
/// Printing, dumping or logging credentials never shows the tokens: ``description`` and the
/// mirror replace them with `[REDACTED]`.
///
/// Encoded (for a ``CredentialStore``) as
/// `{"access_token": "…", "refresh_token": "…", "expires_at": 1700000000.0}`, with
/// `expires_at` in seconds since 1970, plus `token_type`, `scope` and `resource` when known.
/// Files written before those three existed still load.
public struct TokenCredentials: Sendable, Hashable, Codable {
    /// The bearer token sent with every request.
    public var accessToken: String
    /// The token that obtains a new access token; `nil` when the server gave none.
    public var refreshToken: String?
    /// When the access token stops working; `nil` when unknown (then only a 401 triggers a
    /// refresh).
    public var expiresAt: Date?
    /// The token type the server named (`Bearer`); `nil` when it named none.
    public var tokenType: String?
    /// The scope the server granted, space-separated; `nil` when it did not say.
    public var scope: String?
    /// The RFC 8707 resource indicator the token is bound to (for example
    /// `urn:bc:account:123`); sent back on every refresh.
    public var resource: String?

    /// Creates credentials.
    public init(
        accessToken: String,
        refreshToken: String? = nil,
        expiresAt: Date? = nil,
        tokenType: String? = nil,
        scope: String? = nil,
        resource: String? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.tokenType = tokenType
        self.scope = scope
        self.resource = resource
    }

    /// Creates credentials from a relative lifetime such as OAuth's `expires_in`.
    public init(accessToken: String, refreshToken: String? = nil, expiresIn: Duration, receivedAt: Date) {
        self.init(
            accessToken: accessToken,
            refreshToken: refreshToken,
            expiresAt: receivedAt.addingTimeInterval(expiresIn.seconds)
        )
    }

    private enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresAt = "expires_at"
        case tokenType = "token_type"
        case scope
        case resource
    }

    /// Decodes the store format.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        expiresAt = try container.decodeIfPresent(Double.self, forKey: .expiresAt).map(
            Date.init(timeIntervalSince1970:)
        )
        tokenType = try container.decodeIfPresent(String.self, forKey: .tokenType)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        resource = try container.decodeIfPresent(String.self, forKey: .resource)
    }

    /// Encodes the store format.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encodeIfPresent(expiresAt?.timeIntervalSince1970, forKey: .expiresAt)
        try container.encodeIfPresent(tokenType, forKey: .tokenType)
        try container.encodeIfPresent(scope, forKey: .scope)
        try container.encodeIfPresent(resource, forKey: .resource)
    }

    /// Whether the access token expires within `margin` of `now` (or already has).
    public func expires(within margin: Duration, of now: Date) -> Bool {
        guard let expiresAt else { return false }
        return now.addingTimeInterval(margin.seconds) >= expiresAt
    }

    /// Whether `other` holds different tokens: the same tokens with another expiry or scope
    /// are the same credentials, renewed by nobody.
    package func hasSameTokens(as other: TokenCredentials) -> Bool {
        accessToken == other.accessToken && refreshToken == other.refreshToken
    }
}

extension TokenCredentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The expiry, token type, scope and resource; both tokens are shown as `[REDACTED]`.
    public var description: String {
        let refresh = refreshToken == nil ? "nil" : Redactor.placeholder
        let expiry = expiresAt.map { $0.formatted(.utcTimestamp) } ?? "unknown"
        var text =
            "TokenCredentials(accessToken: \(Redactor.placeholder), refreshToken: \(refresh), expiresAt: \(expiry)"
        if let tokenType { text += ", tokenType: \(tokenType)" }
        if let scope { text += ", scope: \(scope)" }
        if let resource { text += ", resource: \(resource)" }
        return text + ")"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Only what is not secret, so `dump` shows no token.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "expiresAt": expiresAt as Any, "tokenType": tokenType as Any, "scope": scope as Any,
                "resource": resource as Any,
            ]
        )
    }
}

/// Turns a token endpoint's response body into ``TokenCredentials``.
///
/// ``standard`` reads the OAuth 2 shape `{"access_token", "refresh_token", "expires_in"}`;
/// give your own for other shapes:
///
/// ```swift
/// let decoder = CredentialsDecoder { body, receivedAt in
///     let value = try JSONValue(parsing: body)
///     guard let token = value["data"]?["token"]?.stringValue else { throw CredentialsDecoder.Failure() }
///     return TokenCredentials(accessToken: token, refreshToken: value["data"]?["renew"]?.stringValue)
/// }
/// ```
///
/// Errors thrown here never reach the caller as they are (they might quote the body): the
/// refresh fails with a fixed `auth_required` message.
public struct CredentialsDecoder: Sendable {
    /// The body is not a credentials response.
    public struct Failure: Error, Sendable {
        /// Creates the error.
        public init() {}
    }

    /// Decodes `body`, received at `receivedAt` (for relative lifetimes).
    public let decode: @Sendable (_ body: Data, _ receivedAt: Date) throws -> TokenCredentials

    /// Creates a decoder.
    public init(_ decode: @escaping @Sendable (_ body: Data, _ receivedAt: Date) throws -> TokenCredentials) {
        self.decode = decode
    }

    /// `{"access_token": "…", "refresh_token": "…", "expires_in": 3600}`; only `access_token`
    /// is required. `expires_in` may be a number or numeric text.
    public static let standard = CredentialsDecoder { body, receivedAt in
        let value = try JSONValue(parsing: body)
        guard let accessToken = value["access_token"]?.stringValue, !accessToken.isEmpty else { throw Failure() }
        let refreshToken = value["refresh_token"]?.stringValue
        let expiresIn = value["expires_in"].flatMap { $0.doubleValue ?? $0.stringValue.flatMap(Double.init) }
        guard let expiresIn, expiresIn.isFinite, expiresIn >= 0 else {
            return TokenCredentials(accessToken: accessToken, refreshToken: refreshToken)
        }
        return TokenCredentials(
            accessToken: accessToken,
            refreshToken: refreshToken,
            expiresAt: receivedAt.addingTimeInterval(expiresIn)
        )
    }
}
