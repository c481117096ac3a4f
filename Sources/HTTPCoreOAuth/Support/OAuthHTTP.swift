import Foundation
import HTTPCore
import HTTPTypes

/// One request to an OAuth endpoint.
struct OAuthRequest: Sendable {
    var method: HTTPRequest.Method
    var url: URL
    /// Form fields, in order; `nil` sends no body.
    var form: [OAuthParameter]?
    var headers: HTTPFields = [:]
    /// The operation name hooks see, e.g. `token`.
    var operation: String

    /// The form as query parameters for a ``RequestBody``.
    var body: RequestBody? {
        form.map { fields in .form(QueryParameters(fields.map { ($0.name, $0.value as (any QueryValueConvertible)?) }))
        }
    }
}

/// One answer from an OAuth endpoint, whatever its status.
struct OAuthResponse: Sendable {
    var status: Int
    var headers: HTTPFields
    var body: Data
    /// When it arrived, on the wall clock (for `expires_in` and `Retry-After` dates).
    var receivedAt: Date
}

/// Sends OAuth requests and hands back every answer, error statuses included.
///
/// Two ways: through a one-off HTTPCore ``Client`` (flows and discovery: hooks, `User-Agent`,
/// limits, no retry, no redirects), or through an ``AuthContext`` (a refresh inside
/// `RefreshingTokenAuth`, which must not pass through the API client's chain again).
struct OAuthHTTP: Sendable {
    let timeSource: any TimeSource
    private let perform: @Sendable (OAuthRequest) async throws -> OAuthResponse

    init(timeSource: any TimeSource, perform: @escaping @Sendable (OAuthRequest) async throws -> OAuthResponse) {
        self.timeSource = timeSource
        self.perform = perform
    }

    /// Sends `request`.
    ///
    /// - Throws: ``APIError`` when no answer arrived (`network`, `limit_exceeded`, `usage` for
    ///   a URL that may not be used); `CancellationError`.
    func send(_ request: OAuthRequest) async throws -> OAuthResponse {
        do {
            return try await perform(request)
        } catch let error as APIError where error.code == .ambiguous {
            // Sign-in requests change nothing a retry could duplicate harmfully; the user
            // starts again either way, so "the connection failed" is the useful report.
            var details = error.details
            details.message = "The connection to \(request.url.host ?? "the server") failed during the request."
            details.hint = "Check the connection and try again."
            throw APIError.network(details)
        }
    }
}

extension OAuthHTTP {
    /// Requests through a fresh client with `network`'s settings and `maxBodySize`.
    init(network: OAuthNetwork, maxBodySize: Int? = nil) {
        let limit = maxBodySize ?? network.maxResponseBodySize
        self.init(timeSource: network.timeSource) { request in
            try await Self.sendThroughClient(request, network: network, maxBodySize: limit)
        }
    }

    /// Requests through `context` (the API client's transport, clock and `User-Agent`).
    init(context: AuthContext) {
        self.init(timeSource: context.timeSource) { request in
            let response: TransportResponse
            do {
                let (httpRequest, body) = try context.makeRequest(
                    request.method,
                    request.url.absoluteString,
                    headers: request.headers,
                    body: request.body
                )
                response = try await context.send(httpRequest, body: body)
            } catch let error as APIError {
                throw error
            } catch let error as CancellationError {
                throw error
            } catch {
                throw ErrorMapping.apiError(from: error, isIdempotent: true)
            }
            return OAuthResponse(
                status: response.response.status.code,
                headers: response.response.headerFields,
                body: response.body,
                receivedAt: context.timeSource.now()
            )
        }
    }

    private static func sendThroughClient(
        _ request: OAuthRequest,
        network: OAuthNetwork,
        maxBodySize: Int
    ) async throws -> OAuthResponse {
        let configuration = ClientConfiguration(
            baseURL: placeholderBase,
            timeout: network.timeout,
            userAgent: network.userAgent,
            maxResponseBodySize: maxBodySize,
            maxErrorBodySize: min(maxBodySize, 64 * 1024),
            redirectPolicy: .none,
            redactor: Redactor().addingOAuthSecrets(),
            errorBodyDecoder: ErrorBodyDecoder { response in
                var error = response.standardError
                // The body stays out of the error hooks see; the flow reads it from the cause.
                error.details = APIError.Details(
                    message: "The OAuth endpoint answered HTTP \(response.response.status.code).",
                    httpStatus: response.response.status.code,
                    requestID: response.requestID,
                    retryAfter: error.details.retryAfter,
                    cause: CapturedResponse(
                        response: OAuthResponse(
                            status: response.response.status.code,
                            headers: response.response.headerFields,
                            body: response.body,
                            receivedAt: response.receivedAt
                        )
                    )
                )
                return error
            },
            hooks: network.hooks,
            timeSource: network.timeSource,
            retry: .none,
            retryBudget: nil
        )
        let client = try Client(configuration: configuration, transport: network.transport)
        let endpoint = Endpoint<Data>(
            request.method,
            request.url.absoluteString,
            headers: request.headers,
            body: request.body,
            operation: OperationMetadata(name: request.operation, service: "oauth")
        )
        do {
            let response = try await client.response(endpoint)
            return OAuthResponse(
                status: response.status.code,
                headers: response.headers,
                body: response.body,
                receivedAt: network.timeSource.now()
            )
        } catch let error as APIError {
            if let captured = error.cause as? CapturedResponse { return captured.response }
            throw error
        }
    }

    /// The base URL of the one-off clients; every OAuth request names an absolute URL.
    private static let placeholderBase: URL = {
        var components = URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        return components.url ?? URL(fileURLWithPath: "/")
    }()
}

/// An error answer kept whole for the flow that reads it, and hidden from everyone else: its
/// description and mirror show only the status.
struct CapturedResponse: Error, Sendable, CustomStringConvertible, CustomReflectable {
    let response: OAuthResponse

    var description: String { "HTTP \(response.status)" }
    var customMirror: Mirror { Mirror(self, children: ["status": response.status]) }
}

/// Runs `body`, giving up with `timeout()` when it has not finished within `limit` on `clock`.
///
/// The whole call is bounded, not just the wait for each byte, so a server that sends a byte
/// now and then cannot hold a discovery fetch open.
package func withTimeLimit<Value: Sendable>(
    _ limit: Duration,
    on clock: any TimeSource,
    timeout: @escaping @Sendable () -> APIError,
    _ body: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await clock.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw CancellationError() }
        guard let value = first else { throw timeout() }
        return value
    }
}
