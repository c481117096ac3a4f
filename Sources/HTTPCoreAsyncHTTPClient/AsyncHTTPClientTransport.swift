public import AsyncHTTPClient
public import Foundation
public import HTTPCore
public import HTTPTypes
public import NIOCore
import NIOHTTP1

/// An ``HTTPCore/HTTPTransport`` on swift-server's AsyncHTTPClient (SwiftNIO).
///
/// It behaves like ``HTTPCore/URLSessionTransport`` in every way the contract suite checks: it
/// sends one hop, handing a 3xx back for the client's redirect stage (AsyncHTTPClient's own
/// redirect following must be off), the body limits are enforced while the body streams in, and
/// failures become ``HTTPCore/TransportError`` with an honest
/// ``HTTPCore/TransportError/requestMayHaveBeenSent``.
///
/// Each request runs on one of the client's event loops through AsyncHTTPClient's delegate API,
/// which lets the transport stop a quiet or oversized body without a task of its own.
///
/// A transport either owns its `HTTPClient` or borrows one:
///
/// - ``init(configuration:eventLoopGroup:)`` creates and owns a client. Call ``shutdown()``
///   when you are done, or use ``withAsyncHTTPClientTransport(configuration:eventLoopGroup:isolation:_:)``
///   to scope it.
/// - ``init(client:)`` borrows a client you already run; you keep shutting it down yourself.
/// - ``shared`` is a process-wide transport whose client lives as long as the process.
public final class AsyncHTTPClientTransport: HTTPTransport {
    /// A transport for the whole process, for clients that do not bring their own.
    ///
    /// Its client is never shut down, like `HTTPClient.shared`; ``shutdown()`` does nothing to it.
    public static let shared = AsyncHTTPClientTransport(
        client: HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: recommendedConfiguration),
        ownership: .processWide
    )

    /// The client requests go through.
    public let client: HTTPClient

    private enum Ownership {
        case borrowed
        case owned
        case processWide
    }

    private let ownership: Ownership
    /// The client's event loops, in order; a request runs on one of them.
    private let eventLoops: [any EventLoop]
    /// Which entries of `eventLoops` the requests in flight hold (see `sendOnce`).
    private let loopSlots = Locked(LoopSlots())
    /// Whether an owned client has been shut down, so it is shut down once.
    private let isShutDown = Locked(false)

    /// The configuration an owned client starts from.
    ///
    /// AsyncHTTPClient's defaults with three changes:
    /// - redirects are not followed (the client's redirect stage applies its
    ///   ``HTTPCore/RedirectPolicy`` instead);
    /// - a failed connection attempt fails the request at once instead of being retried until
    ///   the connect timeout, so a stopped server is reported in milliseconds and HTTPCore's
    ///   ``HTTPCore/RetryPolicy`` decides what to repeat;
    /// - gzip and deflate responses are decompressed, as URLSession does. The body limits count
    ///   decompressed bytes;
    /// - AsyncHTTPClient's own tracing is off: its spans carry each URL as it is, a signed
    ///   storage URL's signature included, while the client's tracing stage records redacted ones.
    public static var recommendedConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.tracing.tracer = nil
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.decompression = .enabled(limit: .none)
        return configuration
    }

    /// Creates a transport that owns a new `HTTPClient`.
    ///
    /// Redirect following and AsyncHTTPClient's own tracing are switched off on `configuration`
    /// whatever it says. Shut the client down with ``shutdown()``; a transport released without
    /// it shuts its client down in the background.
    public init(
        configuration: HTTPClient.Configuration = AsyncHTTPClientTransport.recommendedConfiguration,
        eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup
    ) {
        var configuration = configuration
        configuration.redirectConfiguration = .disallow
        configuration.tracing.tracer = nil
        self.client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
        self.ownership = .owned
        self.eventLoops = Self.eventLoops(of: client.eventLoopGroup)
    }

    /// Creates a transport that borrows `client`; its owner shuts it down.
    ///
    /// The client must be created with `redirectConfiguration: .disallow`, for example from
    /// ``recommendedConfiguration``. A client that follows redirects itself would bypass the
    /// client's ``HTTPCore/RedirectPolicy``; when the transport sees that it happened it fails the
    /// request with ``HTTPCore/TransportError/Kind/redirectRefused``. Create it with tracing off
    /// too (`tracing.tracer = nil`, as ``recommendedConfiguration`` has it), or its spans record
    /// URLs with their secrets.
    public init(client: HTTPClient) {
        self.client = client
        self.ownership = .borrowed
        self.eventLoops = Self.eventLoops(of: client.eventLoopGroup)
    }

    private init(client: HTTPClient, ownership: Ownership) {
        self.client = client
        self.ownership = ownership
        self.eventLoops = Self.eventLoops(of: client.eventLoopGroup)
    }

    private static func eventLoops(of group: any EventLoopGroup) -> [any EventLoop] {
        let loops = Array(group.makeIterator())
        return loops.isEmpty ? [group.next()] : loops
    }

    deinit {
        // A safety net: AsyncHTTPClient traps in debug builds when a running client is released.
        if ownership == .owned, isShutDown.withLock({ !$0 }) {
            client.shutdown { _ in }
        }
    }

    /// Shuts down a client this transport owns, failing any request still running.
    ///
    /// Does nothing for a borrowed client or for ``shared``, and nothing the second time.
    public func shutdown() async throws {
        guard ownership == .owned else { return }
        let first = isShutDown.withLock { isShutDown -> Bool in
            defer { isShutDown = true }
            return !isShutDown
        }
        if first { try await client.shutdown() }
    }

    /// Sends the request and returns its response, a redirect included.
    public func send(_ request: HTTPRequest, body: Data?, options: TransportOptions) async throws -> TransportResponse {
        try await sendOnce(request, body: body, options: options)
    }

    /// Sends the request streaming the upload from a file and a successful body to the
    /// transfer's sink.
    public func send(
        _ request: HTTPRequest,
        body: Data?,
        options: TransportOptions,
        transfer: FileTransfer
    ) async throws -> TransportResponse {
        try await sendOnce(request, body: body, options: options, transfer: transfer)
    }

    private func sendOnce(
        _ request: HTTPRequest,
        body: Data?,
        options: TransportOptions,
        transfer: FileTransfer? = nil
    ) async throws -> TransportResponse {
        let started = NIODeadline.now()
        guard let url = request.url else {
            throw TransportError(
                .invalidURL,
                requestMayHaveBeenSent: false,
                message: "The request's scheme, authority and path make no URL."
            )
        }
        // Sequential requests take the first event loop and keep reusing its connection without
        // changing threads; concurrent ones spread over the loops as their connections do.
        let slot = loopSlots.withLock { $0.take() }
        defer { loopSlots.withLock { $0.give(slot) } }
        let eventLoop = eventLoops[slot % eventLoops.count]
        var prepared = try Self.clientRequest(request, url: url)
        prepared.body = body.map { InMemoryUploadBody.body(for: $0, on: eventLoop) }
        var uploadWindow: UploadWindow?
        if let file = transfer?.uploadFile {
            let length = try TransportError.uploadLength(of: file)
            let window = UploadWindow(chunks: FileUploadBody.chunksInFlight, eventLoop: eventLoop)
            prepared.body = try FileUploadBody.body(for: file, length: length, window: window, on: eventLoop)
            uploadWindow = window
        }
        let outgoing = prepared
        let collector = ResponseCollector(
            eventLoop: eventLoop,
            isHead: request.method == .head,
            options: options,
            started: started,
            transfer: transfer,
            uploadWindow: uploadWindow
        )
        let client = self.client
        let collected: CollectedResponse
        do {
            collected = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    eventLoop.execute {
                        collector.start(outgoing, on: client, url: url) { continuation.resume(with: $0) }
                    }
                }
            } onCancel: {
                eventLoop.execute { collector.cancel() }
            }
        } catch {
            // A request that failed for its own reasons while its task was cancelled reports the
            // cancellation, as the caller expects.
            if Task.isCancelled { throw CancellationError() }
            throw error
        }
        return TransportResponse(
            response: Self.httpResponse(from: collected.head),
            body: collected.body.map { Data($0.readableBytesView) } ?? Data(),
            url: url
        )
    }

    private static func clientRequest(_ request: HTTPRequest, url: URL) throws -> HTTPClient.Request {
        do {
            return try HTTPClient.Request(
                url: url,
                method: HTTPMethod(rawValue: request.method.rawValue),
                // AsyncHTTPClient frames the body itself and rejects conflicting framing headers.
                headers: HTTPHeaders(
                    request.headerFields
                        .filter { $0.name != .contentLength && $0.name != .transferEncoding }
                        .map { ($0.name.rawName, $0.value) }
                )
            )
        } catch {
            throw TransportError.invalidURL(url, "AsyncHTTPClient cannot use this URL", underlying: error)
        }
    }

    static func httpResponse(from head: HTTPResponseHead) -> HTTPResponse {
        var fields = HTTPFields()
        for (name, value) in head.headers {
            guard let fieldName = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        // The collector refused any code outside 100...999.
        return HTTPResponse(
            status: HTTPResponse.Status(code: Int(head.status.code), reasonPhrase: head.status.reasonPhrase),
            headerFields: fields
        )
    }
}

/// The free entries of a transport's event-loop list, most recently freed last.
private struct LoopSlots: Sendable {
    private var free: [Int] = []
    private var created = 0

    mutating func take() -> Int {
        if let slot = free.popLast() { return slot }
        defer { created += 1 }
        return created
    }

    mutating func give(_ slot: Int) {
        free.append(slot)
    }
}

/// Runs `body` with a transport that owns a new `HTTPClient`, and shuts the client down when
/// `body` returns or throws.
///
/// ```swift
/// try await withAsyncHTTPClientTransport { transport in
///     let client = try Client(configuration: configuration, transport: transport)
///     try await run(client)
/// }
/// ```
public func withAsyncHTTPClientTransport<Result>(
    configuration: HTTPClient.Configuration = AsyncHTTPClientTransport.recommendedConfiguration,
    eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (AsyncHTTPClientTransport) async throws -> Result
) async throws -> Result {
    let transport = AsyncHTTPClientTransport(configuration: configuration, eventLoopGroup: eventLoopGroup)
    let result: Result
    do {
        result = try await body(transport)
    } catch {
        // The body's error matters more than a failed shutdown.
        try? await transport.shutdown()
        throw error
    }
    try await transport.shutdown()
    return result
}
