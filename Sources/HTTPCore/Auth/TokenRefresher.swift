import Foundation

/// Swaps credentials whose access token expired (or was rejected) for fresh ones: the network
/// half of ``RefreshingTokenAuth``.
///
/// ``RefreshingTokenAuth`` decides when to refresh, makes sure only one refresh runs at a time
/// (across processes too, with a ``FileCredentialStore``), saves the result and replays the
/// requests that waited. A refresher only talks to the token endpoint. HTTPCore's own,
/// built from a ``RefreshEndpoint``, posts the refresh token; the `HTTPCoreOAuth` product brings
/// one that speaks OAuth 2 fully (client authentication, `resource`, strict response checks).
///
/// Errors decide what happens to the stored credentials:
/// - ``APIError/authRequired(_:)`` means the refresh token itself was refused: the credentials
///   are dropped (from the store too) and every later request fails fast until a new sign-in.
/// - Any other ``APIError`` (network, 5xx, 429, a malformed answer) keeps the credentials, so a
///   blip never signs anyone out.
public protocol TokenRefresher: Sendable {
    /// The form and query names this refresher sends secrets in; added to the client's
    /// redactor.
    var redactor: Redactor { get }

    /// Returns fresh credentials for `credentials`, whose ``TokenCredentials/refreshToken`` is
    /// set.
    ///
    /// Fields the answer leaves out (refresh token, scope, token type, resource) are carried
    /// forward from `credentials` by the caller.
    ///
    /// - Parameter context: Sends the refresh request straight to the client's transport, with
    ///   its clock, `User-Agent` and hooks.
    /// - Throws: ``APIError``, as described above; `CancellationError` when cancelled.
    func refresh(_ credentials: TokenCredentials, context: AuthContext) async throws -> TokenCredentials
}

extension TokenCredentials {
    /// These credentials with every field `fresh` left out taken from `previous`: a refresh
    /// answer that omits the refresh token, scope, token type or resource keeps them unchanged.
    package func carryingForward(from previous: TokenCredentials) -> TokenCredentials {
        var merged = self
        if merged.refreshToken == nil { merged.refreshToken = previous.refreshToken }
        if merged.scope == nil { merged.scope = previous.scope }
        if merged.tokenType == nil { merged.tokenType = previous.tokenType }
        if merged.resource == nil { merged.resource = previous.resource }
        return merged
    }
}
