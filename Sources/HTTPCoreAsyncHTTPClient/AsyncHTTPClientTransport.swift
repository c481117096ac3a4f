public import AsyncHTTPClient
public import Foundation
public import HTTPCore
public import HTTPTypes
public import NIOCore
import NIOHTTP1

/// An ``HTTPCore/HTTPTransport`` on swift-server's AsyncHTTPClient (SwiftNIO).
///
/// It behaves like ``HTTPCore/URLSessionTransport`` in every way the contract suite checks:
/// redirects go through ``HTTPCore/RedirectPolicy`` hop by hop (AsyncHTTPClient's own redirect
/// following must be off), the body limits are enforced while the body streams in, and failures
/// become ``HTTPCore/TransportError`` with an honest
/// ``HTTPCore/TransportError/requestMayHaveBeenSent``.
///
/// Each request goes through AsyncHTTPClient's async API, `HTTPClient.execute(_:deadline:)`:
/// the timeout bounds the wait for the response head, and then, as an idle timeout, each gap
/// while the body streams in.
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
    /// Whether an owned client has been shut down, so it is shut down once.
    private let isShutDown = Locked(false)

    /// The configuration an owned client starts from.
    ///
    /// AsyncHTTPClient's defaults with three changes:
    /// - redirects are not followed (``HTTPCore/RedirectPolicy`` applies them instead);
    /// - a failed connection attempt fails the request at once instead of being retried until
    ///   the connect timeout, so a stopped server is reported in milliseconds and HTTPCore's
    ///   ``HTTPCore/RetryPolicy`` decides what to repeat;
    /// - gzip and deflate responses are decompressed, as URLSession does. The body limits count
    ///   decompressed bytes.
    public static var recommendedConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.decompression = .enabled(limit: .none)
        return configuration
    }

    /// Creates a transport that owns a new `HTTPClient`.
    ///
    /// Redirect following is switched off on `configuration` whatever it says. Shut the client
    /// down with ``shutdown()``; a transport released without it shuts its client down in the
    /// background.
    public init(
        configuration: HTTPClient.Configuration = AsyncHTTPClientTransport.recommendedConfiguration,
        eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup
    ) {
        var configuration = configuration
        configuration.redirectConfiguration = .disallow
        self.client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
        self.ownership = .owned
    }

    /// Creates a transport that borrows `client`; its owner shuts it down.
    ///
    /// The client must be created with `redirectConfiguration: .disallow`, for example from
    /// ``recommendedConfiguration``. A client that follows redirects itself would bypass
    /// ``HTTPCore/RedirectPolicy``; when the transport sees that it happened it fails the request
    /// with ``HTTPCore/TransportError/Kind/redirectRefused``.
    public init(client: HTTPClient) {
        self.client = client
        self.ownership = .borrowed
    }

    private init(client: HTTPClient, ownership: Ownership) {
        self.client = client
        self.ownership = ownership
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

    /// Sends the request, following redirects as `options.redirectPolicy` allows.
    public func send(_ request: HTTPRequest, body: Data?, options: TransportOptions) async throws -> TransportResponse {
        try await options.redirectPolicy.follow(request, body: body) { hop, hopBody, url in
            try await sendOnce(hop, body: hopBody, url: url, options: options)
        }
    }

    private func sendOnce(
        _ request: HTTPRequest,
        body: Data?,
        url: URL,
        options: TransportOptions
    ) async throws -> TransportResponse {
        // AsyncHTTPClient learns of a cancellation asynchronously and may still send the request.
        try Task.checkCancellation()
        let outgoing = try Self.clientRequest(request, body: body, url: url)
        var headArrived = false
        do {
            let response = try await client.execute(outgoing, deadline: .now() + TimeAmount(options.timeout))
            headArrived = true
            let head = try Self.head(of: response)
            let bodyFollows = request.method != .head && response.status.mayHaveResponseBody
            let data = try await ResponseBodyReader(head: head, bodyFollows: bodyFollows, options: options)
                .read(response.body)
            return TransportResponse(response: head, body: data, url: url)
        } catch {
            throw TransportErrorMapping.transportError(from: error, url: url, responseStarted: headArrived)
        }
    }

    private static func clientRequest(_ request: HTTPRequest, body: Data?, url: URL) throws -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headerFields {
            // AsyncHTTPClient frames the body itself and rejects conflicting framing headers.
            if field.name == .contentLength || field.name == .transferEncoding { continue }
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        if let body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        return outgoing
    }

    /// The response's status and headers, or why it must be refused from its head alone.
    private static func head(of response: HTTPClientResponse) throws -> HTTPResponse {
        guard response.history.count <= 1 else {
            throw TransportError(
                .redirectRefused,
                requestMayHaveBeenSent: true,
                message: "The HTTPClient followed a redirect itself; create it with redirectConfiguration: .disallow."
            )
        }
        guard (100...999).contains(response.status.code) else {
            throw TransportError(
                .invalidResponse,
                requestMayHaveBeenSent: true,
                message: "The server answered with an invalid status code."
            )
        }
        var fields = HTTPFields()
        for (name, value) in response.headers {
            guard let fieldName = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        return HTTPResponse(
            status: HTTPResponse.Status(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase),
            headerFields: fields
        )
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
