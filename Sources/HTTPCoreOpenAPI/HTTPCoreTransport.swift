public import Foundation
public import HTTPCore
public import HTTPTypes
public import OpenAPIRuntime

/// A swift-openapi-generator `ClientTransport` that sends every request of a generated client
/// through an HTTPCore ``HTTPCore/Client``: retry with backoff and `Retry-After`, the
/// idempotency gate, auth (refreshing tokens, OAuth), the ETag cache, hooks and observability,
/// redaction and deadlines, over whichever HTTPCore transport the client uses.
///
/// ```swift
/// let core = try HTTPCore.Client(configuration: ClientConfiguration(baseURL: serverURL, auth: auth, cache: cache))
/// let api = Client(serverURL: serverURL, transport: HTTPCoreTransport(client: core))
/// let projects = try await api.listProjects(path: .init(accountId: 999)).ok.body.json
/// ```
///
/// Each call keeps its OpenAPI identity: the operation id is HTTPCore's operation name in hooks,
/// metrics and retry decisions, and whether a call may be repeated follows its HTTP method unless
/// ``Configuration/idempotency`` says otherwise for that operation. Request bodies up to
/// ``Configuration/maxBufferedRequestBodySize`` are sent from memory; larger ones, and those of
/// unknown length, are spooled to a private temporary file and streamed from it by HTTPCore's
/// upload path. A body that can be read only once (`IterationBehavior.single`) is never retried.
/// Responses come back whatever their status, as the generated client expects, unless
/// ``Configuration/mapsErrorStatuses`` turns error statuses into ``HTTPCore/APIError``.
///
/// The generated client's server URL must be on the HTTPCore client's origin, so credentials
/// never reach another host.
public struct HTTPCoreTransport: ClientTransport {
    /// The HTTPCore client whose pipeline sends every request.
    public let client: HTTPCore.Client
    /// How operations map onto HTTPCore calls.
    public let configuration: Configuration

    private let origin: ServerOrigin

    /// Creates a transport sending through `client`.
    public init(client: HTTPCore.Client, configuration: Configuration = Configuration()) {
        self.client = client
        self.configuration = configuration
        self.origin = ServerOrigin(client: client)
    }

    /// Sends one request of the generated client through the HTTPCore client's pipeline.
    ///
    /// - Throws: ``HTTPCore/APIError`` for a call that failed (and, with
    ///   ``Configuration/mapsErrorStatuses``, for an error status); the generated client wraps it
    ///   in its `ClientError`, from which ``HTTPCore/APIError/init(openAPI:)`` takes it back out.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let page = PageProbe.current.flatMap { $0.claim(by: client) ? $0 : nil }
        var target = try origin.target(for: request, baseURL: baseURL)
        if let next = page?.target { target = PageProbe.request(target, at: next) }
        let prepared = try await PreparedBody(body, bufferingUpTo: configuration.maxBufferedRequestBodySize)
        defer { prepared.discard() }
        let isIdempotent =
            configuration.idempotency[operationID] ?? Endpoint<NoContent>.isIdempotentMethod(request.method)
        var operation = OperationMetadata(
            name: operationID,
            service: configuration.service,
            idempotent: isIdempotent,
            retry: configuration.retryPolicies[operationID]
        )
        if prepared.isSingleUse { operation.retry = Self.once(operation.retry ?? client.configuration.retry) }
        if let length = prepared.fileLength { target.headerFields[.contentLength] = String(length) }
        let download = try configuration.streamedResponses.contains(operationID) ? ResponseSpool() : nil
        do {
            let exchange = try await client.exchange(
                target,
                body: prepared.data,
                operation: operation,
                isIdempotent: isIdempotent,
                transfer: FileTransfer.forCall(upload: prepared.file, download: download?.sink),
                mapsErrorStatuses: configuration.mapsErrorStatuses
            )
            page?.record(exchange)
            let responseBody = try download.map { try $0.body(for: exchange) } ?? Self.body(exchange.body)
            return (exchange.response, responseBody)
        } catch let error as APIError where prepared.isSingleUse && error.isRetryable {
            download?.discard()
            throw error.notRetriedForSingleUseBody()
        } catch {
            download?.discard()
            throw error
        }
    }

    /// A response body from memory, `nil` when there is none.
    private static func body(_ data: Data) -> HTTPBody? {
        data.isEmpty ? nil : HTTPBody(data)
    }

    /// `policy` limited to one attempt.
    private static func once(_ policy: RetryPolicy) -> RetryPolicy {
        var policy = policy
        policy.maxAttempts = 1
        return policy
    }
}

extension FileTransfer {
    /// The transfer for a call that streams its body from `upload` and/or its answer to
    /// `download`; `nil` when it does neither.
    static func forCall(upload: URL?, download: DownloadSink?) -> FileTransfer? {
        guard upload != nil || download != nil else { return nil }
        return FileTransfer(uploadFile: upload, download: download)
    }
}
