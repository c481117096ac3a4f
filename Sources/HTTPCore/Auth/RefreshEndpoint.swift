import Foundation
public import HTTPTypes

/// Where and how ``RefreshingTokenAuth`` refreshes its token.
///
/// The default is OAuth 2's refresh grant: `POST` with the form body
/// `grant_type=refresh_token&refresh_token=…`. JSON bodies, other field names, extra fields
/// (`client_id`) and fully custom bodies are configurable.
public struct RefreshEndpoint: Sendable {
    /// How the refresh request's fields are encoded.
    public enum BodyEncoding: Sendable, Hashable {
        /// `application/x-www-form-urlencoded`.
        case form
        /// A JSON object of strings.
        case json
    }

    /// A path relative to the client's base URL, or an absolute URL (which must be https,
    /// unless loopback).
    public var path: String
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// Extra headers, for example a client credential (registered as secret if it is one).
    public var headers: HTTPFields
    /// The field that carries the refresh token, registered as secret.
    public var refreshTokenField: String
    /// Builds the body from the refresh token.
    public var body: @Sendable (_ refreshToken: String) -> RequestBody

    /// A refresh sending the refresh token and `extraFields` as a form or JSON body.
    ///
    /// - Parameters:
    ///   - path: The endpoint, relative or absolute.
    ///   - method: `POST` by default.
    ///   - encoding: ``BodyEncoding/form`` (the OAuth default) or ``BodyEncoding/json``.
    ///   - refreshTokenField: The refresh token's field name.
    ///   - extraFields: Sent along, in order; `grant_type=refresh_token` by default.
    ///   - headers: Extra headers.
    public init(
        path: String,
        method: HTTPRequest.Method = .post,
        encoding: BodyEncoding = .form,
        refreshTokenField: String = "refresh_token",
        extraFields: KeyValuePairs<String, String> = ["grant_type": "refresh_token"],
        headers: HTTPFields = [:]
    ) {
        let fields = extraFields.map { ($0.key, $0.value) }
        self.init(path: path, method: method, refreshTokenField: refreshTokenField, headers: headers) { token in
            let all = fields + [(refreshTokenField, token)]
            switch encoding {
            case .form:
                return .form(QueryParameters(all.map { ($0.0, $0.1 as (any QueryValueConvertible)?) }))
            case .json:
                return .json(.object(Dictionary(all.map { ($0.0, JSONValue.string($0.1)) }) { _, last in last }))
            }
        }
    }

    /// A refresh with a body of your own making.
    public init(
        path: String,
        method: HTTPRequest.Method = .post,
        refreshTokenField: String = "refresh_token",
        headers: HTTPFields = [:],
        body: @escaping @Sendable (_ refreshToken: String) -> RequestBody
    ) {
        self.path = path
        self.method = method
        self.headers = headers
        self.refreshTokenField = refreshTokenField
        self.body = body
    }
}

/// The refresher ``RefreshingTokenAuth`` builds from a ``RefreshEndpoint`` and a
/// ``CredentialsDecoder``.
struct EndpointRefresher: TokenRefresher {
    let endpoint: RefreshEndpoint
    let decoder: CredentialsDecoder

    /// The refresh token's field, as a secret form and query name.
    var redactor: Redactor {
        Redactor(secretQueryParameters: [endpoint.refreshTokenField])
    }

    func refresh(_ credentials: TokenCredentials, context: AuthContext) async throws -> TokenCredentials {
        let refreshToken = credentials.refreshToken ?? ""
        let sentAt = context.timeSource.now()
        let response: TransportResponse
        do {
            let (request, body) = try context.makeRequest(
                endpoint.method,
                endpoint.path,
                headers: endpoint.headers,
                body: endpoint.body(refreshToken)
            )
            response = try await context.send(request, body: body)
        } catch let error as APIError {
            throw error
        } catch {
            // Cancellation included: the refresh is shared, so a stop here is a failure for
            // everyone waiting, but not a reason to discard the refresh token.
            var details = APIError.Details(
                message: "The token refresh request failed: \((error as? TransportError)?.message ?? "no response").",
                hint: "Check the connection and try again."
            )
            details.cause = error as? TransportError
            throw APIError.network(details)
        }
        let status = response.response.status.code
        switch status {
        case 200..<300:
            do {
                return try decoder.decode(response.body, sentAt)
            } catch {
                throw APIError.authRequired(
                    APIError.Details(
                        message: "The token refresh response did not contain credentials.",
                        hint: "Sign in again.",
                        httpStatus: status
                    )
                )
            }
        case 408, 429, 500...:
            let code: APIError.Code = status == 429 ? .rateLimit : (status == 408 ? .network : .apiError)
            throw APIError(
                code,
                APIError.Details(
                    message: "The token refresh failed with HTTP \(status); the credentials are kept.",
                    hint: "Try again later.",
                    httpStatus: status
                )
            )
        case 300..<400:
            // A redirect says nothing about the refresh token: the endpoint moved, or a proxy
            // stands in front of it. The refresh is not followed there, and the token is kept.
            throw APIError.apiError(
                APIError.Details(
                    message:
                        "The token refresh endpoint answered with a redirect (HTTP \(status)); the credentials are kept.",
                    hint: "Check the token endpoint's address: it may have moved.",
                    httpStatus: status
                )
            )
        default:
            let reason = ErrorBodyFields(body: response.body).message.map { " (\(Self.shortCode($0)))" } ?? ""
            throw APIError.authRequired(
                APIError.Details(
                    message: "The refresh token was rejected with HTTP \(status)\(reason).",
                    hint: "Sign in again.",
                    httpStatus: status
                )
            )
        }
    }

    /// An OAuth error code such as `invalid_grant`, or nothing: a free-text message from the
    /// server could quote the token it rejected.
    private static func shortCode(_ text: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz_")
        guard text.count <= 40, text.allSatisfy({ allowed.contains($0) }) else { return "rejected" }
        return text
    }
}
