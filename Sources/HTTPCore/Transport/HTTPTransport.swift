import Foundation
public import HTTPTypes

/// Sends one HTTP request and returns the complete response.
///
/// A transport sends one hop: it does no redirecting, retrying, caching or error mapping, which
/// belong to the ``Client``'s pipeline (a 3xx comes back as the response it is, and the
/// pipeline's redirect stage decides whether to follow it). It enforces the body limits while
/// receiving, and throws ``TransportError`` when no complete response arrives. HTTP error
/// statuses are not errors here: they come back as responses.
///
/// Conforming types must be safe to share between tasks.
public protocol HTTPTransport: Sendable {
    /// Sends `request` with `body` and returns its response, without following a redirect.
    ///
    /// - Throws: ``TransportError``, or `CancellationError` when the task is cancelled.
    func send(_ request: HTTPRequest, body: Data?, options: TransportOptions) async throws -> TransportResponse

    /// Sends `request` streaming the upload from ``FileTransfer/uploadFile`` (instead of `body`)
    /// and a successful response body into ``FileTransfer/download``, whose response then has an
    /// empty body. Error bodies are collected as usual.
    ///
    /// The default implementation buffers both through ``send(_:body:options:)``; a transport
    /// that can stream overrides it so memory stays flat whatever the file's size.
    func send(
        _ request: HTTPRequest,
        body: Data?,
        options: TransportOptions,
        transfer: FileTransfer
    ) async throws -> TransportResponse
}

/// Per-request settings the client hands its transport.
public struct TransportOptions: Sendable {
    /// How long to wait for the server without receiving anything.
    public var timeout: Duration
    /// The longest the whole exchange may take, from sending to the body's last byte, however
    /// steadily bytes arrive; `nil` for no limit beyond ``timeout``. The client sets it from what
    /// is left of the call's deadline. A transport that reaches it stops the exchange and throws
    /// ``TransportError/Kind/timedOut``.
    public var totalTimeout: Duration?
    /// The largest successful (below 400) body accepted; beyond it the transport throws
    /// ``TransportError/Kind/bodyLimitExceeded(limit:)``.
    public var maxBodySize: Int
    /// How much of an error (400 and above) body to keep; the rest is dropped, not an error.
    public var maxErrorBodySize: Int
    /// Whether repeating the request cannot apply its effect twice: the endpoint's
    /// ``OperationMetadata/idempotent`` flag, else its method's meaning. A transport must not
    /// resend a request that is not (say, after a reused connection died), whatever its method:
    /// some APIs write with GET.
    public var isIdempotent = true

    /// Creates options.
    public init(
        timeout: Duration = .seconds(30),
        maxBodySize: Int = 50 * 1024 * 1024,
        maxErrorBodySize: Int = 1024 * 1024
    ) {
        self.timeout = timeout
        self.maxBodySize = maxBodySize
        self.maxErrorBodySize = maxErrorBodySize
    }
}

/// A complete response.
public struct TransportResponse: Sendable {
    /// Status and headers.
    public var response: HTTPResponse
    /// The whole body (for error statuses, at most the error-body limit).
    public var body: Data
    /// The URL that answered, after any redirects; relative links resolve against it.
    public var url: URL
    /// Whether a cache answered instead of the server.
    public var fromCache: Bool
    /// Set by a stage inside retry on an answer it can fix by sending the call again at once
    /// (auth, after renewing the credentials the answer rejected): retry then replays the call
    /// instead of delivering this answer, once per call, and clears it. `nil` on every answer a
    /// transport returns, and on every answer that leaves retry.
    public var replay: ReplayRequest?
    /// Whether this answers the GET a redirect turned the request into (a 303, or a 301 or 302
    /// after a POST), or is such a redirect to a write that is not followed: the server handled
    /// the original request before redirecting, so a write must not be sent again whatever this
    /// answer says.
    var isAfterRedirectToGET = false
    /// The credential values the request that drew this error answer carried, so the error made
    /// from it can be scrubbed of any the server quotes back; empty on a success.
    var sentCredentials: [String] = []
    /// Set by retry on the answer a call ends with when an earlier attempt of the call may have
    /// been applied, so the error made from this answer says so.
    var earlierAttemptMayHaveBeenApplied = false

    /// Creates a response.
    public init(response: HTTPResponse, body: Data = Data(), url: URL, fromCache: Bool = false) {
        self.response = response
        self.body = body
        self.url = url
        self.fromCache = fromCache
    }
}
