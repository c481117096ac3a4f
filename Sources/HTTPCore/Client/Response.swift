public import Foundation
public import HTTPTypes

/// A decoded value together with the response it came from.
public struct Response<Value: Sendable>: Sendable {
    /// The decoded body.
    public var value: Value
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// The response headers.
    public var headers: HTTPFields
    /// The server's request id, if it sent one.
    public var requestID: String?
    /// The raw body bytes.
    public var body: Data
    /// The URL that answered, after redirects.
    public var url: URL
    /// Whether the client's cache answered (after a `304 Not Modified`).
    public var fromCache: Bool

    /// Creates a response.
    public init(
        value: Value,
        status: HTTPResponse.Status,
        headers: HTTPFields,
        requestID: String?,
        body: Data,
        url: URL,
        fromCache: Bool = false
    ) {
        self.value = value
        self.status = status
        self.headers = headers
        self.requestID = requestID
        self.body = body
        self.url = url
        self.fromCache = fromCache
    }

    /// The same response with its value transformed.
    public func map<NewValue: Sendable>(_ transform: (Value) throws -> NewValue) rethrows -> Response<NewValue> {
        Response<NewValue>(
            value: try transform(value),
            status: status,
            headers: headers,
            requestID: requestID,
            body: body,
            url: url,
            fromCache: fromCache
        )
    }
}
