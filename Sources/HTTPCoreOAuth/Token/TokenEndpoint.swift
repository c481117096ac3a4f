import Foundation
import HTTPCore
import HTTPTypes

/// Builds requests to a token endpoint (client authentication included) and reads its answers.
struct TokenEndpoint: Sendable {
    let server: AuthorizationServer
    let client: OAuthClientRegistration

    /// What a token request asks for.
    enum Grant: Sendable {
        case authorizationCode
        case refresh
        case deviceCode

        /// The field naming this grant in `style`.
        func parameter(in style: TokenRequestStyle) -> OAuthParameter {
            switch self {
            case .authorizationCode: return style.authorizationCodeGrant
            case .refresh: return style.refreshGrant
            case .deviceCode: return OAuthParameter("grant_type", TokenRequestStyle.deviceCodeGrantType)
            }
        }

        /// What the message calls the thing being exchanged.
        var subject: String {
            switch self {
            case .authorizationCode: return "authorization code"
            case .refresh: return "refresh token"
            case .deviceCode: return "device code"
            }
        }
    }

    /// A `POST` to the token endpoint with the grant, `fields` and the client's credentials.
    func request(_ grant: Grant, fields: [OAuthParameter]) -> OAuthRequest {
        OAuthRequest(
            method: .post,
            url: server.tokenEndpoint,
            form: [grant.parameter(in: server.tokenRequestStyle)] + fields + clientFields,
            headers: clientHeaders,
            operation: "token"
        )
    }

    /// `client_id` (and `client_secret`) as form fields, unless the secret goes in a header.
    var clientFields: [OAuthParameter] {
        guard let secret = client.clientSecret else { return [OAuthParameter("client_id", client.clientID)] }
        switch client.authentication {
        case .formFields:
            return [OAuthParameter("client_id", client.clientID), OAuthParameter("client_secret", secret)]
        case .basicHeader: return []
        }
    }

    /// `Authorization: Basic` for a confidential client that authenticates that way.
    var clientHeaders: HTTPFields {
        guard let secret = client.clientSecret, client.authentication == .basicHeader else { return [:] }
        // RFC 6749 §2.3.1: both parts form-encoded before Base64.
        let pair =
            PercentEncoding.encode(client.clientID, spaceAsPlus: true) + ":"
            + PercentEncoding.encode(secret, spaceAsPlus: true)
        return [.authorization: "Basic " + Data(pair.utf8).base64EncodedString()]
    }

    /// The credentials in a 200 answer.
    ///
    /// - Parameter secrets: What the request carried, kept out of any message.
    /// - Throws: ``APIError`` for every other answer (see ``error(for:grant:secrets:)``) and for
    ///   a malformed 200.
    func credentials(from response: OAuthResponse, grant: Grant, secrets: [String]) throws -> TokenCredentials {
        guard response.status == 200 else { throw error(for: response, grant: grant, secrets: secrets) }
        return try TokenResponse.credentials(from: response.body, status: 200, receivedAt: response.receivedAt)
    }

    /// The error for a token endpoint's answer other than 200.
    ///
    /// A refused grant (`invalid_grant`, another OAuth error in a 4xx, or a bare 401) is
    /// `auth_required` (sign in again); a refused client, scope or grant type is `usage` (the
    /// app's configuration); `access_denied` is `forbidden`; 429 is `rate_limit` with its
    /// `Retry-After`; 408 is `network`; `invalid_request` (a parameter missing or malformed, which
    /// says nothing of the grant), 5xx, redirects and any other status (a 400 that is no OAuth
    /// answer, a 404 from a wrong URL) are `api_error`. Only `auth_required` means the stored
    /// refresh token is spent: every other error leaves it to be used again.
    func error(
        for response: OAuthResponse,
        grant: Grant,
        secrets: [String],
        endpointName: String = "token endpoint"
    ) -> APIError {
        let status = response.status
        let oauth = OAuthErrorBody(body: response.body, secrets: secrets)
        var details = APIError.Details(message: "", httpStatus: status, requestID: response.headers[.xRequestID])
        details.setOAuthCode(oauth.code)
        let code: APIError.Code
        switch status {
        case 300..<400:
            code = .apiError
            details.message = "The \(endpointName) answered with a redirect (HTTP \(status)), which is not followed."
            details.hint = "Check the \(endpointName)'s URL."
        case 429:
            code = .rateLimit
            details.message = "The \(endpointName) is rate limiting this client (HTTP 429)."
            details.retryAfter = response.headers[.retryAfter].flatMap {
                RetryAfter.parse($0, now: response.receivedAt)
            }
            details.hint = "Wait and try again."
        case 408:
            code = .network
            details.message = "The \(endpointName) timed out waiting for the request (HTTP 408)."
            details.hint = "Check the connection and try again."
        case 500...:
            code = .apiError
            details.message = "The \(endpointName) failed with HTTP \(status)\(oauth.summary); nothing was changed."
            details.hint = "Try again later."
        case 400..<500 where oauth.code == .invalidRequest:
            code = .apiError
            details.message = "The \(endpointName) refused the request as malformed\(oauth.summary) (HTTP \(status))."
            details.hint = "The sign-in is kept. If this persists, sign in again."
        case 400..<500 where status == 401 || oauth.code != nil:
            (code, details.message, details.hint) = Self.refusal(
                oauth,
                grant: grant,
                status: status,
                endpointName: endpointName
            )
        default:
            code = .apiError
            details.message = "The \(endpointName) answered HTTP \(status), which is not an OAuth answer."
        }
        return APIError(code, details)
    }

    private static func refusal(
        _ oauth: OAuthErrorBody,
        grant: Grant,
        status: Int,
        endpointName: String
    ) -> (APIError.Code, String, String) {
        let reason = oauth.summary
        switch oauth.code {
        case .invalidClient?, .unauthorizedClient?:
            return (
                .usage, "The \(endpointName) refused this client\(reason) (HTTP \(status)).",
                "Check the client id and secret registered with the provider."
            )
        case .invalidScope?:
            return (
                .usage, "The \(endpointName) refused the requested scope\(reason).",
                "Ask for a scope the provider offers."
            )
        case .unsupportedGrantType?:
            return (
                .usage, "The \(endpointName) does not accept this grant\(reason).",
                "Check the server's token request style (standard or legacy) and the grants it offers."
            )
        case .accessDenied?:
            return (.forbidden, "Sign-in was declined\(reason).", "Sign in again and approve the request to continue.")
        default:
            return (.authRequired, "The \(grant.subject) was refused\(reason) (HTTP \(status)).", "Sign in again.")
        }
    }
}
