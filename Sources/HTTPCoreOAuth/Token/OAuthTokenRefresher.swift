import Foundation
public import HTTPCore

/// OAuth 2's refresh grant for HTTPCore's `RefreshingTokenAuth`.
///
/// Sends the refresh token, the client's credentials and the credentials' RFC 8707 `resource`
/// in the server's token request style; checks the answer strictly (a malformed one is an
/// `api_error` and the credentials are kept). A refused refresh token (`invalid_grant` and
/// other 4xx refusals) is `auth_required`, which signs the strategy out; a refused client is
/// `usage`, which keeps the credentials for when the configuration is fixed.
///
/// Get one from ``OAuthClient/refresher``.
public struct OAuthTokenRefresher: TokenRefresher {
    let endpoint: TokenEndpoint
    let redirectURI: URL?

    /// Every OAuth secret parameter name (`refresh_token`, `client_secret`, …).
    public var redactor: Redactor { Redactor().addingOAuthSecrets() }

    /// Refreshes through the client's transport.
    ///
    /// - Throws: ``APIError`` as described on the type.
    public func refresh(_ credentials: TokenCredentials, context: AuthContext) async throws -> TokenCredentials {
        try await refresh(credentials, via: OAuthHTTP(context: context))
    }

    func refresh(_ credentials: TokenCredentials, via http: OAuthHTTP) async throws -> TokenCredentials {
        guard let refreshToken = credentials.refreshToken, !refreshToken.isEmpty else {
            throw APIError.authRequired(
                APIError.Details(
                    message: "There is no refresh token to renew the access token with.",
                    hint: "Sign in again."
                )
            )
        }
        var fields = [OAuthParameter("refresh_token", refreshToken)]
        if endpoint.server.tokenRequestStyle.refreshSendsRedirectURI {
            guard let redirectURI else {
                // Sent without it, the refresh would be refused and the sign-in kept unusable.
                throw APIError.usage(
                    "This server wants the sign-in's redirect URI on every refresh, and the client registration "
                        + "has none.",
                    hint: "Set OAuthClientRegistration.redirectURI to the redirect URI the sign-in used."
                )
            }
            fields.append(OAuthParameter("redirect_uri", redirectURI.absoluteString))
        }
        if let resource = credentials.resource { fields.append(OAuthParameter("resource", resource)) }
        let response = try await http.send(endpoint.request(.refresh, fields: fields))
        return try endpoint.credentials(
            from: response,
            grant: .refresh,
            secrets: [refreshToken, credentials.accessToken] + (endpoint.client.clientSecret.map { [$0] } ?? [])
        )
    }
}
