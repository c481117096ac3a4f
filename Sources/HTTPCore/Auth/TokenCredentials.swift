public import Foundation

/// An access token, the refresh token that renews it, and when it expires.
///
/// Printing, dumping or logging credentials never shows the tokens: ``description`` and the
/// mirror replace them with `[REDACTED]`.
///
/// Encoded (for a ``CredentialStore``) as
/// `{"access_token": "…", "refresh_token": "…", "expires_at": 1700000000.0}`, with
/// `expires_at` in seconds since 1970.
public struct TokenCredentials: Sendable, Hashable, Codable {
    /// The bearer token sent with every request.
    public var accessToken: String
    /// The token that obtains a new access token; `nil` when the server gave none.
    public var refreshToken: String?
    /// When the access token stops working; `nil` when unknown (then only a 401 triggers a
    /// refresh).
    public var expiresAt: Date?

    /// Creates credentials.
    public init(accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
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
    }

    /// Decodes the store format.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        expiresAt = try container.decodeIfPresent(Double.self, forKey: .expiresAt).map(
            Date.init(timeIntervalSince1970:)
        )
    }

    /// Encodes the store format.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encodeIfPresent(expiresAt?.timeIntervalSince1970, forKey: .expiresAt)
    }

    /// Whether the access token expires within `margin` of `now` (or already has).
    public func expires(within margin: Duration, of now: Date) -> Bool {
        guard let expiresAt else { return false }
        return now.addingTimeInterval(margin.seconds) >= expiresAt
    }
}

extension TokenCredentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The expiry only; both tokens are shown as `[REDACTED]`.
    public var description: String {
        let refresh = refreshToken == nil ? "nil" : Redactor.placeholder
        let expiry = expiresAt.map { $0.formatted(JSONCoding.wholeSeconds) } ?? "unknown"
        return "TokenCredentials(accessToken: \(Redactor.placeholder), refreshToken: \(refresh), expiresAt: \(expiry))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Only the expiry, so `dump` shows no token.
    public var customMirror: Mirror { Mirror(self, children: ["expiresAt": expiresAt as Any]) }
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
