public import Foundation
public import HTTPTypes

/// What an ``AuthStrategy`` gets from the client: its clock, base URL, redactor and hooks,
/// and a way to send its own requests (token refreshes, session logins).
///
/// ``send(_:body:)`` hands a request straight to the client's transport, with the client's
/// timeout and body limits. It is not retried, not redirected (a 3xx is the answer, so a login's
/// password or a refresh token never follows a redirect to another server), not authorised again
/// (so a refresh can never trigger another refresh), does not pass through your middlewares or
/// the request hooks, and is not an attempt of the call that needed it: a refresh is shared by
/// every call waiting for it and may outlive the one that started it. Strategies report their
/// own requests with ``emit(_:)`` instead.
public struct AuthContext: Sendable {
    /// The client's clock; expiry and renewal read it so tests can move time.
    public let timeSource: any TimeSource
    /// The client's base URL, without a trailing slash.
    public let baseURL: URL
    /// The client's redactor, with every strategy secret registered.
    public let redactor: Redactor
    /// The call that needed the credentials, for correlating hook events.
    public let callID: UInt64
    /// The operation of that call.
    public let operation: OperationMetadata
    /// When that call must be over, on ``timeSource``'s monotonic clock; `nil` for no deadline.
    /// A strategy that waits for a renewal another call started stops waiting then.
    public let deadline: Duration?

    private let hooks: (any Hooks)?
    private let defaultHeaders: HTTPFields
    private let userAgent: String?
    private let json: JSONCoding
    private let forward: @Sendable (HTTPRequest, Data?) async throws -> TransportResponse

    /// Creates a context; the client makes one per attempt. Public so a strategy can be tested
    /// on its own with a closure standing in for the network.
    public init(
        baseURL: URL,
        timeSource: any TimeSource = SystemTimeSource(),
        redactor: Redactor = Redactor(),
        hooks: (any Hooks)? = nil,
        callID: UInt64 = 0,
        operation: OperationMetadata = OperationMetadata(),
        deadline: Duration? = nil,
        defaultHeaders: HTTPFields = [:],
        userAgent: String? = nil,
        json: JSONCoding = JSONCoding(),
        send: @escaping @Sendable (HTTPRequest, Data?) async throws -> TransportResponse
    ) {
        self.baseURL = baseURL
        self.timeSource = timeSource
        self.redactor = redactor
        self.hooks = hooks
        self.callID = callID
        self.operation = operation
        self.deadline = deadline
        self.defaultHeaders = defaultHeaders
        self.userAgent = userAgent
        self.json = json
        self.forward = send
    }

    /// Sends `request` on the client's transport and returns whatever response arrives; HTTP
    /// error statuses and redirects are responses, not errors.
    ///
    /// - Throws: ``TransportError`` when no response arrived, or `CancellationError`.
    public func send(_ request: HTTPRequest, body: Data?) async throws -> TransportResponse {
        try await forward(request, body)
    }

    /// Builds and sends a request to `path` (relative to the base URL, or an absolute URL),
    /// with the client's default headers and `User-Agent`.
    ///
    /// - Throws: ``APIError/usage(_:)`` for a URL the client may not send to; otherwise as
    ///   ``send(_:body:)``.
    public func send(
        _ method: HTTPRequest.Method,
        _ path: String,
        query: QueryParameters = [:],
        headers: HTTPFields = [:],
        body: RequestBody? = nil
    ) async throws -> TransportResponse {
        let (request, data) = try makeRequest(method, path, query: query, headers: headers, body: body)
        return try await forward(request, data)
    }

    /// The request ``send(_:_:query:headers:body:)`` would send.
    ///
    /// - Throws: ``APIError/usage(_:)`` for an invalid URL or a body that cannot be encoded.
    public func makeRequest(
        _ method: HTTPRequest.Method,
        _ path: String,
        query: QueryParameters = [:],
        headers: HTTPFields = [:],
        body: RequestBody? = nil
    ) throws -> (HTTPRequest, Data?) {
        // Built as the client builds an endpoint's request; made here, not per context, since
        // contexts are made for every attempt and only the rare refresh or login builds one.
        let builder = RequestBuilder(
            baseURL: try URLPolicy.validatedBaseURL(baseURL),
            defaultHeaders: defaultHeaders,
            userAgent: userAgent,
            json: json,
            redactor: redactor
        )
        return try builder.request(method, path: path, query: query, headers: headers, body: body)
    }

    /// Reports an auth event to the client's hooks, if it has any.
    public func emit(_ event: AuthEvent) {
        hooks?.auth(event)
    }

    /// Whether the client has hooks, so a strategy can skip building events nobody reads.
    public var hasHooks: Bool { hooks != nil }

    /// Whether the call's deadline has come: past it, a strategy must not fall back to sending
    /// with older credentials.
    var deadlineHasPassed: Bool {
        deadline.map { timeSource.monotonicNow() >= $0 } ?? false
    }
}
