import Foundation
public import HTTPTypes

/// A typed description of one API call: what to send and what comes back.
///
/// An SDK's services are factories of endpoints; ``Client`` sends them.
///
/// ```swift
/// let endpoint = Endpoint<Project>(.get, "projects/\(id).json")
/// let project = try await client.send(endpoint)
/// ```
///
/// `path` is relative to the client's base URL. An absolute `http(s)://` URL is also accepted,
/// for follow-ups such as a `Location` or a `download_url`; it passes the same checks as a
/// base URL (https unless loopback).
public struct Endpoint<Response: Sendable>: Sendable {
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The path below the base URL, or an absolute URL.
    public var path: String
    /// Query parameters; `nil` values are dropped.
    public var query: QueryParameters
    /// Headers for this call; they override the client's defaults.
    public var headers: HTTPFields
    /// The request body, if any.
    public var body: RequestBody?
    /// Names and behaviour flags for hooks, retry and caching.
    public var operation: OperationMetadata
    /// How a successful response becomes `Response`.
    public var decoder: ResponseDecoder<Response>
    /// The longest this call may take, attempts, waits and auth refreshes included; replaces
    /// the client's ``ClientConfiguration/deadline``.
    public var deadline: Duration?

    /// Creates an endpoint with an explicit response decoder.
    public init(
        _ method: HTTPRequest.Method,
        _ path: String,
        query: QueryParameters = [:],
        headers: HTTPFields = [:],
        body: RequestBody? = nil,
        operation: OperationMetadata = OperationMetadata(),
        decoder: ResponseDecoder<Response>
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.operation = operation
        self.decoder = decoder
    }

    /// Whether repeating this request cannot apply its effect twice: the operation's own flag
    /// when it has one, otherwise the HTTP method's meaning.
    public var isIdempotent: Bool {
        operation.idempotent ?? Self.isIdempotentMethod(method)
    }

    /// The same request read with `decoder`: for a call that takes the answer in another form
    /// (as bytes to a file, as one whole page) than the endpoint's own type.
    public func decoding<Other>(_ decoder: ResponseDecoder<Other>) -> Endpoint<Other> {
        var other = Endpoint<Other>(
            method,
            path,
            query: query,
            headers: headers,
            body: body,
            operation: operation,
            decoder: decoder
        )
        other.deadline = deadline
        return other
    }

    /// GET, HEAD, PUT, DELETE, OPTIONS and TRACE are idempotent by definition (RFC 9110 §9.2.2).
    public static func isIdempotentMethod(_ method: HTTPRequest.Method) -> Bool {
        switch method {
        case .get, .head, .put, .delete, .options, .trace: return true
        default: return false
        }
    }
}

extension Endpoint where Response: Decodable {
    /// Creates an endpoint whose response is decoded from JSON.
    public init(
        _ method: HTTPRequest.Method,
        _ path: String,
        query: QueryParameters = [:],
        headers: HTTPFields = [:],
        body: RequestBody? = nil,
        operation: OperationMetadata = OperationMetadata()
    ) {
        self.init(method, path, query: query, headers: headers, body: body, operation: operation, decoder: .json)
    }
}

extension Endpoint where Response == Data {
    /// Creates an endpoint whose response is the raw body bytes.
    public init(
        _ method: HTTPRequest.Method,
        _ path: String,
        query: QueryParameters = [:],
        headers: HTTPFields = [:],
        body: RequestBody? = nil,
        operation: OperationMetadata = OperationMetadata()
    ) {
        self.init(method, path, query: query, headers: headers, body: body, operation: operation, decoder: .bytes)
    }
}

extension Endpoint where Response == NoContent {
    /// Creates an endpoint that expects no response body.
    public init(
        _ method: HTTPRequest.Method,
        _ path: String,
        query: QueryParameters = [:],
        headers: HTTPFields = [:],
        body: RequestBody? = nil,
        operation: OperationMetadata = OperationMetadata()
    ) {
        self.init(method, path, query: query, headers: headers, body: body, operation: operation, decoder: .noContent)
    }
}
