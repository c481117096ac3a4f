public import HTTPTypes

/// A logical call starting: one `send` or `response`, before any attempt.
public struct OperationStartEvent: Sendable {
    /// The endpoint's operation metadata.
    public var operation: OperationMetadata
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The request URL with secrets replaced.
    public var url: String
    /// An id shared by every event of this call, for correlating attempts; unique within the process.
    public var callID: UInt64
}

/// A logical call ending, successfully or not, after its last attempt.
public struct OperationEndEvent: Sendable {
    /// The endpoint's operation metadata.
    public var operation: OperationMetadata
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The request URL with secrets replaced.
    public var url: String
    /// The id shared by every event of this call.
    public var callID: UInt64
    /// Time from start to end, attempts and waits included.
    public var duration: Duration
    /// The final HTTP status, when a response arrived.
    public var status: Int?
    /// How many attempts were made, a replay included (redirect hops are not attempts).
    public var attempts: Int
    /// The error the call ends with; `nil` on success. `CancellationError` is reported as `nil`
    /// error with ``cancelled`` set.
    public var error: APIError?
    /// Why a download's file could not be written (a full disk, say), when that ended the call:
    /// the answer arrived but was not kept. Not an ``APIError``, since the API did nothing wrong.
    public var fileError: FileWriteError?
    /// Whether the call was cancelled.
    public var cancelled: Bool
}

/// One request about to go to the transport: an attempt, or one hop of an attempt that followed
/// a redirect, with the hop's own URL and headers.
public struct RequestStartEvent: Sendable {
    /// The endpoint's operation metadata.
    public var operation: OperationMetadata
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The request URL with secrets replaced.
    public var url: String
    /// The request headers with secrets replaced.
    public var headers: HTTPFields
    /// The id shared by every event of this call.
    public var callID: UInt64
    /// 1 for the first attempt, 2 for the first retry, and so on.
    public var attempt: Int
}

/// One request finished: a response arrived or the transport failed.
public struct RequestEndEvent: Sendable {
    /// The endpoint's operation metadata.
    public var operation: OperationMetadata
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The request URL with secrets replaced.
    public var url: String
    /// The id shared by every event of this call.
    public var callID: UInt64
    /// 1 for the first attempt, 2 for the first retry, and so on.
    public var attempt: Int
    /// The HTTP status, when a response arrived.
    public var status: Int?
    /// The response headers with secrets replaced, when a response arrived.
    public var headers: HTTPFields?
    /// The server's `X-Request-Id`, if any.
    public var requestID: String?
    /// Time the request took, on the client's time source.
    public var duration: Duration
    /// Whether the response was served from the client's cache.
    public var fromCache: Bool
    /// The transport failure, when no response arrived.
    public var error: APIError?
}

/// A retry about to wait before its next attempt.
public struct RetryEvent: Sendable {
    /// The endpoint's operation metadata.
    public var operation: OperationMetadata
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The request URL with secrets replaced.
    public var url: String
    /// The id shared by every event of this call.
    public var callID: UInt64
    /// The attempt that failed (1 for the first).
    public var attempt: Int
    /// Why it failed.
    public var error: APIError
    /// How long the client waits before the next attempt.
    public var delay: Duration
}
