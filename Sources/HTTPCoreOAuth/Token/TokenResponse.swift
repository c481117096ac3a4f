import Foundation
import HTTPCore

/// Reads a token endpoint's success answer strictly: anything malformed is an `api_error`,
/// never a token.
enum TokenResponse {
    /// The longest `expires_in` accepted: ten years. Anything longer is a server bug, not a
    /// token to keep forever.
    static let maxLifetime = 10 * 365 * 24 * 3600

    /// The credentials in `body`, received at `receivedAt`.
    ///
    /// Requires a non-empty string `access_token`. `token_type`, when present, must be a
    /// non-empty string naming a bearer token; `expires_in` must be a whole number of seconds
    /// between 1 and ten years; `refresh_token`, `scope` and `resource` must be strings, and
    /// `refresh_token` and `resource` non-empty. A member sent as `null` counts as absent.
    ///
    /// - Throws: ``APIError/apiError(_:)`` naming the field at fault, never its value.
    static func credentials(from body: Data, status: Int, receivedAt: Date) throws -> TokenCredentials {
        guard let value = try? JSONValue(parsing: body), case .object(let members) = value else {
            throw malformed("the body is not a JSON object", status: status)
        }
        guard case .string(let accessToken)? = members["access_token"], !accessToken.isEmpty else {
            throw malformed("`access_token` is missing or empty", status: status)
        }
        let tokenType = try optionalString(members, "token_type", allowsEmpty: false, status: status)
        if let tokenType, tokenType.lowercased() != "bearer" {
            throw malformed("the token type is \"\(tokenType.prefix(20))\", not Bearer", status: status)
        }
        var expiresAt: Date?
        switch members["expires_in"] {
        case nil, .null?:
            break
        case let lifetime?:
            guard let seconds = lifetime.intValue, seconds > 0, seconds <= maxLifetime else {
                throw malformed("`expires_in` is not a whole number of seconds between 1 and ten years", status: status)
            }
            expiresAt = receivedAt.addingTimeInterval(TimeInterval(seconds))
        }
        return TokenCredentials(
            accessToken: accessToken,
            refreshToken: try optionalString(members, "refresh_token", allowsEmpty: false, status: status),
            expiresAt: expiresAt,
            tokenType: tokenType,
            scope: try optionalString(members, "scope", allowsEmpty: true, status: status),
            resource: try optionalString(members, "resource", allowsEmpty: false, status: status)
        )
    }

    private static func optionalString(
        _ members: [String: JSONValue],
        _ name: String,
        allowsEmpty: Bool,
        status: Int
    ) throws -> String? {
        switch members[name] {
        case nil, .null?:
            return nil
        case .string(let text)? where allowsEmpty || !text.isEmpty:
            return text
        case .string?:
            throw malformed("`\(name)` is empty", status: status)
        default:
            throw malformed("`\(name)` is not a string", status: status)
        }
    }

    static func malformed(_ problem: String, status: Int) -> APIError {
        .apiError(
            APIError.Details(
                message: "The token endpoint's answer is not a usable token: \(problem).",
                hint:
                    "The server answered in a way OAuth 2 does not allow; try again later or report it to the provider.",
                httpStatus: status
            )
        )
    }
}
