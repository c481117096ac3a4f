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
/// Each call builds its request, sends it through the request pipeline (retry, auth, cache, your
/// own middlewares, request hooks, transport; see <doc:RequestPipeline>), then maps its answer
/// to an error or decodes it.
public final class Client: Sendable {
    /// The configuration the client was created with.
    public let configuration: ClientConfiguration
    /// The validated base URL, without a trailing slash.
    public let baseURL: URL
    /// The transport requests go through.
    public let transport: any HTTPTransport

    private let requests: RequestBuilder
    private let pipeline: Pipeline
    private let hooks: (any Hooks)?
    private let redactor: Redactor
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
        self.hooks = configuration.hooks is NoopHooks ? nil : configuration.hooks
        self.redactor = configuration.auth.map { configuration.redactor.merging($0.redactor) } ?? configuration.redactor
        self.requests = RequestBuilder(
            baseURL: baseURL,
            defaultHeaders: configuration.defaultHeaders,
            userAgent: configuration.userAgent,
            json: configuration.json,
            redactor: redactor,
            allowsInsecureHTTP: configuration.allowsInsecureHTTP
        )
        self.pipeline = Pipeline(
            configuration: configuration,
            baseURL: baseURL,
            redactor: redactor,
            hooks: hooks,
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

    /// ``response(_:)``, with `callStage` run around the pipeline for this call alone (see
    /// ``Pipeline/send(_:body:context:through:)``).
    func response<Value>(
        _ endpoint: Endpoint<Value>,
        through callStage: (any Middleware)?,
        transfer: FileTransfer? = nil
    ) async throws -> Response<Value> {
        let (request, body) = try makeRequest(for: endpoint)
        var context = RequestContext(
            operation: endpoint.operation,
            callID: Self.callIDs.withLock { id -> UInt64 in
                id &+= 1
                return id
            },
            isIdempotent: endpoint.isIdempotent,
            redactor: redactor,
            deadline: (endpoint.deadline ?? configuration.deadline).map { configuration.timeSource.monotonicNow() + $0 }
        )
        context.transfer = transfer
        guard let hooks else {
            return try await perform(endpoint, request: request, body: body, context: context, callStage: callStage)
        }
        let attempts = AttemptCounter()
        context.attemptCounter = attempts
        let operation = OperationReport(
            hooks: hooks,
            timeSource: configuration.timeSource,
            operation: endpoint.operation,
            method: request.method,
            url: request.urlText.map(redactor.redact(urlString:)) ?? "",
            callID: context.callID
        )
        do {
            let result = try await perform(
                endpoint,
                request: request,
                body: body,
                context: context,
                callStage: callStage
            )
            operation.ended(status: result.status.code, attempts: attempts.value)
            return result
        } catch {
            operation.ended(error: error, attempts: attempts.value)
            throw error
        }
    }

    /// Sends one call through the pipeline and decodes its answer.
    private func perform<Value>(
        _ endpoint: Endpoint<Value>,
        request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        callStage: (any Middleware)?
    ) async throws -> Response<Value> {
        let result = try await exchange(request, body: body, context: context, callStage: callStage)
        return try decoded(result, with: endpoint.decoder)
    }

    /// Sends one call through the pipeline and returns its 2xx answer.
    ///
    /// - Throws: the ``APIError`` for any other answer or a failure.
    private func exchange(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        callStage: (any Middleware)?
    ) async throws -> TransportResponse {
        let result: TransportResponse
        do {
            result = try await pipeline.send(request, body: body, context: context, through: callStage)
        } catch {
            throw ErrorMapping.apiError(from: error, isIdempotent: context.isIdempotent)
        }
        guard (200..<300).contains(result.response.status.code) else {
            let errorResponse = ErrorResponse(
                response: result.response,
                body: result.body,
                requestID: result.response.headerFields[configuration.requestIDHeader],
                receivedAt: configuration.timeSource.now()
            )
            throw configuration.errorBodyDecoder?.decode(errorResponse) ?? errorResponse.standardError
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
                    message: DecodingFailure.describe(error),
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
