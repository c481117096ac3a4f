import Foundation
public import HTTPTypes

/// How a ``Client`` proves who it is: adds credentials to each request and recovers when the
/// server says they are no longer good.
///
/// Set one on ``ClientConfiguration/auth``; the client then runs it for every attempt, inside
/// retry, and registers its ``redactor`` secrets so they never show in hooks or errors.
///
/// For each attempt the client
/// 1. calls ``authorize(_:body:context:)``, which returns the request with credentials added
///    (a strategy may refresh expiring credentials first),
/// 2. sends it,
/// 3. asks ``isAuthFailure(_:)`` whether the response means "credentials rejected"
///    (by default a 401; APIs that report an expired session in a 200 body plug that in), and
/// 4. on a failure calls ``recover(from:authorized:context:)`` at most once per call. When that
///    returns ``AuthRecovery/replay`` the request is sent again at once with fresh credentials;
///    the replay counts as one attempt of the retry policy but does not wait for backoff.
///
/// A strategy that has to send HTTP itself (a token refresh, a session login) does it with
/// ``AuthContext/send(_:body:)``, which goes straight to the client's transport: no retry and
/// no auth, so a refresh can never trigger another refresh.
///
/// Built-in strategies: ``BearerTokenAuth``, ``TokenProviderAuth``, ``BasicAuth``,
/// ``APIKeyAuth``, ``RefreshingTokenAuth`` and ``SessionLoginAuth``.
public protocol AuthStrategy: Sendable {
    /// The header and query (or form field) names this strategy puts secrets in. The client
    /// merges them into its own ``Redactor``.
    var redactor: Redactor { get }

    /// Returns `request` (and `body`) with credentials added.
    ///
    /// Runs before every attempt, including replays, so it always sees the newest credentials.
    ///
    /// - Throws: ``APIError/authRequired(_:)`` when there are no usable credentials (the request
    ///   is then not sent), or another ``APIError`` when renewing them failed.
    func authorize(_ request: HTTPRequest, body: Data?, context: AuthContext) async throws -> AuthorizedRequest

    /// Whether `response` means the server rejected the credentials. The default matches 401.
    func isAuthFailure(_ response: TransportResponse) -> Bool

    /// Makes fresh credentials available after `response` rejected the ones in `authorized`.
    ///
    /// Called at most once per call. Returning ``AuthRecovery/replay`` sends the request again
    /// (through ``authorize(_:body:context:)``); ``AuthRecovery/deliver`` hands `response` to
    /// the caller as it is. The default delivers.
    ///
    /// - Throws: ``APIError/authRequired(_:)`` when the credentials cannot be renewed; the call
    ///   fails with that error.
    func recover(
        from response: TransportResponse,
        authorized: AuthorizedRequest,
        context: AuthContext
    ) async throws -> AuthRecovery
}

extension AuthStrategy {
    /// A 401.
    public func isAuthFailure(_ response: TransportResponse) -> Bool {
        response.response.status.code == 401
    }

    /// Delivers the response: static credentials cannot be renewed.
    public func recover(
        from response: TransportResponse,
        authorized: AuthorizedRequest,
        context: AuthContext
    ) async throws -> AuthRecovery {
        .deliver
    }
}

/// A request with credentials added, and which credentials they were.
public struct AuthorizedRequest: Sendable {
    /// The request to send.
    public var request: HTTPRequest
    /// Its body (a strategy may add form fields).
    public var body: Data?
    /// Which version of the strategy's credentials was used. A strategy that renews
    /// credentials bumps its generation each time, so a rejection of an older generation is
    /// known to be stale and is answered by a replay, not another renewal.
    public var generation: UInt64

    /// Creates an authorised request.
    public init(request: HTTPRequest, body: Data?, generation: UInt64 = 0) {
        self.request = request
        self.body = body
        self.generation = generation
    }
}

/// What to do after a strategy handled an auth failure.
public enum AuthRecovery: Sendable, Hashable {
    /// Send the request again with the current credentials.
    case replay
    /// Hand the response to the caller as it is (a 401 becomes `auth_required`).
    case deliver
}

/// Decides whether a response means "credentials rejected".
///
/// Most APIs answer 401; some report an expired session inside a successful body. Combine
/// signals with ``or(_:)``:
///
/// ```swift
/// let expired = AuthFailureSignal { response in
///     String(decoding: response.body, as: UTF8.self).contains("\"status\":\"ERROR:invalid session\"")
/// }
/// let signal = AuthFailureSignal.unauthorized.or(expired)
/// ```
public struct AuthFailureSignal: Sendable {
    /// Whether the response is an auth failure.
    public let matches: @Sendable (TransportResponse) -> Bool

    /// Creates a signal from a predicate.
    public init(_ matches: @escaping @Sendable (TransportResponse) -> Bool) {
        self.matches = matches
    }

    /// HTTP 401.
    public static let unauthorized = AuthFailureSignal { $0.response.status.code == 401 }

    /// Any of the given statuses.
    public static func statuses(_ codes: Set<Int>) -> AuthFailureSignal {
        AuthFailureSignal { codes.contains($0.response.status.code) }
    }

    /// Matches when either signal does.
    public func or(_ other: AuthFailureSignal) -> AuthFailureSignal {
        let first = matches
        let second = other.matches
        return AuthFailureSignal { first($0) || second($0) }
    }
}

/// Where a credential travels.
public enum CredentialPlacement: Sendable, Hashable {
    /// As a request header.
    case header
    /// As a URL query parameter.
    case query
    /// As fields of the body when the request has an `application/x-www-form-urlencoded` body,
    /// otherwise as query parameters (APIs that read credentials from either).
    case formOrQuery
}
