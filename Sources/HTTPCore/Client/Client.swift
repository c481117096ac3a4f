public import Foundation
public import HTTPTypes

/// Sends ``Endpoint``s and returns typed values or throws ``APIError``.
///
/// A client is cheap to share: create one per API and base URL and use it from any task.
///
/// ```swift
/// let client = try Client(configuration: ClientConfiguration(baseURL: URL(string: "https://api.example.com/v1")!))
/// let user = try await client.send(Endpoint<User>(.get, "users/42"))
/// ```
///
/// Each call builds its request and sends it through the request pipeline (your call
/// middlewares, the operation hooks, the answer's mapping to a value or an error, then for each
/// attempt retry, auth, cache, your own middlewares, redirects, request hooks and the transport;
/// see <doc:RequestPipeline>).
public final class Client: Sendable {
    /// The configuration the client was created with.
    public let configuration: ClientConfiguration
    /// The validated base URL, without a trailing slash.
    public let baseURL: URL
    /// The transport requests go through.
    public let transport: any HTTPTransport

    private let requests: RequestBuilder
    private let pipeline: Pipeline
    /// What the client hides in URLs, headers and messages it reports: the configuration's
    /// ``ClientConfiguration/redactor`` with the auth strategy's secret names added. Use it for
    /// anything you show about this client's requests.
    public let redactor: Redactor
    /// Configured once; Foundation's decoders are safe to share once configured.
    private let decoder: JSONDecoder
    /// Process-wide, so hooks shared by several clients can key per-call state by `callID`.
    private static let callIDs = Locked<UInt64>(0)

    /// Creates a client.
    ///
    /// - Throws: ``APIError/usage(_:)`` when the base URL is not https (loopback hosts may use
    ///   http, and any host when ``ClientConfiguration/allowsInsecureHTTP``), has no host, or
    ///   carries a query.
    public init(
        configuration: ClientConfiguration,
        transport: any HTTPTransport = URLSessionTransport.shared
    ) throws {
        self.configuration = configuration
        self.baseURL = try URLPolicy.validatedBaseURL(
            configuration.baseURL,
            allowingInsecureHTTP: configuration.allowsInsecureHTTP
        )
        self.transport = transport
        self.decoder = configuration.json.makeDecoder()
        self.redactor = configuration.auth.map { configuration.redactor.merging($0.redactor) } ?? configuration.redactor
        self.requests = RequestBuilder(
            baseURL: baseURL,
            defaultHeaders: configuration.defaultHeaders,
            userAgent: configuration.userAgent,
            accept: configuration.defaultAccept,
            json: configuration.json,
            redactor: redactor,
            allowsInsecureHTTP: configuration.allowsInsecureHTTP
        )
        self.pipeline = Pipeline(
            configuration: configuration,
            baseURL: baseURL,
            redactor: redactor,
            hooks: configuration.hooks is NoopHooks ? nil : configuration.hooks,
            transport: transport
        )
    }

    /// Sends `endpoint` and returns its decoded value.
    ///
    /// - Throws: ``APIError`` for every failure; `CancellationError` when the task is cancelled.
    public func send<Value>(_ endpoint: Endpoint<Value>) async throws -> Value {
        try await response(endpoint).value
    }

    /// Sends `endpoint` and returns its decoded value with status, headers, request id and
    /// raw body.
    ///
    /// - Throws: ``APIError`` for every failure; `CancellationError` when the task is cancelled.
    public func response<Value>(_ endpoint: Endpoint<Value>) async throws -> Response<Value> {
        try await response(endpoint, through: nil)
    }

    /// The URL `endpoint` is sent to: the base URL joined with its path, plus its query.
    ///
    /// - Throws: ``APIError/usage(_:)`` when the path makes no valid URL or an absolute URL
    ///   breaks the https rule.
    public func url<Value>(for endpoint: Endpoint<Value>) throws -> URL {
        try requests.url(path: endpoint.path, query: endpoint.query)
    }

    /// The HTTP request and encoded body `endpoint` produces, before any middleware runs. Its URL
    /// is ``url(for:)`` without a fragment.
    ///
    /// - Throws: ``APIError/usage(_:)`` for an invalid URL or a body that cannot be encoded.
    public func makeRequest<Value>(for endpoint: Endpoint<Value>) throws -> (HTTPRequest, Data?) {
        try requests.request(
            endpoint.method,
            path: endpoint.path,
            query: endpoint.query,
            headers: endpoint.headers,
            body: endpoint.body
        )
    }

    /// ``response(_:)``, with `callStage` run outside retry for this call alone (see
    /// ``Pipeline/send(_:body:context:answer:through:)``).
    func response<Value>(
        _ endpoint: Endpoint<Value>,
        through callStage: (any Middleware)?,
        transfer: FileTransfer? = nil
    ) async throws -> Response<Value> {
        let (request, body) = try makeRequest(for: endpoint)
        let decoder = endpoint.decoder
        let takesRedirects = endpoint.operation.redirects.map { $0.maxRedirects == 0 } ?? false
        let isSafeToRepeat = RetryStage.isSafeToRepeat(
            request,
            isIdempotent: endpoint.isIdempotent,
            idempotencyKeyHeader: configuration.idempotencyKeyHeader
        )
        return try await call(
            request,
            body: body,
            operation: endpoint.operation,
            isIdempotent: endpoint.isIdempotent,
            deadline: endpoint.deadline,
            transfer: transfer,
            through: callStage
        ) { [self] result in
            try decoded(checked(result, takesRedirects: takesRedirects, isSafeToRepeat: isSafeToRepeat), with: decoder)
        }
    }

    /// Runs one call of a built request through the pipeline; `answer` turns its final answer
    /// into the call's outcome (a value, or the ``APIError`` it means).
    func call<Value>(
        _ request: HTTPRequest,
        body: Data?,
        operation: OperationMetadata,
        isIdempotent: Bool,
        deadline: Duration?,
        transfer: FileTransfer?,
        through callStage: (any Middleware)?,
        answer: @escaping @Sendable (TransportResponse) throws -> Response<Value>
    ) async throws -> Response<Value> {
        var context = RequestContext(
            operation: operation,
            callID: Self.callIDs.withLock { id -> UInt64 in
                id &+= 1
                return id
            },
            isIdempotent: isIdempotent,
            redactor: redactor,
            deadline: (deadline ?? configuration.deadline).map { configuration.timeSource.monotonicNow() + $0 }
        )
        context.transfer = transfer
        let answerStage = AnswerStage<Value>(isIdempotent: isIdempotent, answer: answer)
        let result: TransportResponse
        do {
            result = try await pipeline.send(
                request,
                body: body,
                context: context,
                answer: answerStage,
                through: callStage
            )
        } catch {
            // A call middleware's own failure; the answer stage mapped everything from inside.
            throw ErrorMapping.apiError(from: error, isIdempotent: isIdempotent)
        }
        return try answerStage.response(for: result)
    }

    /// The request with the client's default headers (`User-Agent`, `Accept` and
    /// ``ClientConfiguration/defaultHeaders``) added where it has none of that name.
    func withDefaultHeaders(_ request: HTTPRequest) -> HTTPRequest {
        requests.withBaseHeaders(request)
    }

    /// `result` when it is a 2xx answer, or a redirect handed to a call whose own redirect
    /// policy follows none (``OperationMetadata/redirects``), which reads the `Location` itself.
    ///
    /// - Throws: the ``APIError`` any other answer means; `ambiguous` for a 500, 502 or 504 that
    ///   answered a request not safe to repeat.
    func checked(_ result: TransportResponse, takesRedirects: Bool, isSafeToRepeat: Bool) throws -> TransportResponse {
        let status = result.response.status.code
        let isTakenRedirect = takesRedirects && RedirectPolicy.redirectStatuses.contains(status)
        guard (200..<300).contains(status) || isTakenRedirect else {
            let error = result.apiError(
                decodedWith: configuration.errorBodyDecoder,
                requestIDHeader: configuration.requestIDHeader,
                receivedAt: configuration.timeSource.now()
            )
            // The server handled the write before redirecting; only fetching its answer failed.
            if result.isAfterRedirectToGET, !isSafeToRepeat { throw ErrorMapping.outcomeUnknown(error.details) }
            throw ErrorMapping.outcomeOfServerError(error, isSafeToRepeat: isSafeToRepeat)
        }
        return result
    }

    /// The endpoint's value decoded from a 2xx answer, with the answer's details.
    ///
    /// - Throws: ``APIError/apiError(_:)`` naming what failed to decode.
    private func decoded<Value>(
        _ result: TransportResponse,
        with decoder: ResponseDecoder<Value>
    ) throws -> Response<Value> {
        let requestID = result.response.headerFields[configuration.requestIDHeader]
        let value: Value
        do {
            value = try decoder.decode(result.body, result.response, self.decoder)
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError.apiError(
                APIError.Details(
                    message: DecodingFailure.describe(error, body: result.body),
                    httpStatus: result.response.status.code,
                    requestID: requestID,
                    cause: SendableDescription(error)
                )
            )
        }
        return Response(
            value: value,
            status: result.response.status,
            headers: result.response.headerFields,
            requestID: requestID,
            body: result.body,
            url: result.url,
            fromCache: result.fromCache
        )
    }
}
