import Foundation
import HTTPCore
import HTTPTypes

/// A transport that answers from a script, for tests without a network.
///
/// Give it a queue of steps — responses or failures — or a handler closure. It records every
/// request it receives, with the test clock's time, so tests can assert what was sent. Like
/// every transport it sends one hop: a scripted 3xx is answered as it is, and the client's
/// redirect stage sends the redirect's request as the next one.
///
/// ```swift
/// let transport = ScriptedTransport([
///     .status(503),
///     .json(["id": 1]),
/// ])
/// ```
public final class ScriptedTransport: HTTPTransport {
    /// One scripted answer.
    public enum Step: Sendable {
        /// Answer with this status, headers and body.
        case respond(status: Int, headers: HTTPFields, body: Data)
        /// Throw this error instead of answering.
        case fail(any Error & Sendable)
        /// Compute the answer from the request.
        case handle(@Sendable (RecordedRequest) async throws -> TransportResponse)
        /// Answer a download as a streaming transport does: `begin` the sink with a 2xx head,
        /// `write` parts of the body, and return, or throw to cut the body off midway. The sink is
        /// closed afterwards. Only a download (a call with a ``HTTPCore/FileTransfer`` sink) can
        /// take this step.
        case stream(@Sendable (RecordedRequest, DownloadSink) async throws -> TransportResponse)
    }

    /// A request as the transport received it.
    public struct RecordedRequest: Sendable {
        /// The request.
        public var request: HTTPRequest
        /// Its body.
        public var body: Data?
        /// Its URL.
        public var url: URL
        /// The clock's monotonic time when it arrived.
        public var time: Duration
        /// The options the client passed.
        public var options: TransportOptions

        /// The body as UTF-8 text.
        public var bodyText: String? { body.map { String(decoding: $0, as: UTF8.self) } }

        /// The value of a header.
        public func header(_ name: String) -> String? {
            HTTPField.Name(name).flatMap { request.headerFields[$0] }
        }

        /// The query parameters, decoded, in order.
        public var queryItems: [URLQueryItem] {
            URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        }
    }

    private struct State {
        var steps: [Step]
        var requests: [RecordedRequest] = []
    }

    private let state: Locked<State>
    private let handler: (@Sendable (RecordedRequest) async throws -> TransportResponse)?
    private let clock: (any TimeSource)?

    /// Creates a transport that answers with `steps` in order, one per request.
    ///
    /// When the steps run out, further requests fail with a `TransportError` saying so.
    public init(_ steps: [Step] = [], clock: (any TimeSource)? = nil) {
        self.state = Locked(State(steps: steps))
        self.handler = nil
        self.clock = clock
    }

    /// Creates a transport that answers every request with `handler`.
    public init(
        clock: (any TimeSource)? = nil,
        handler: @escaping @Sendable (RecordedRequest) async throws -> TransportResponse
    ) {
        self.state = Locked(State(steps: []))
        self.handler = handler
        self.clock = clock
    }

    /// Every request received, in order.
    public var requests: [RecordedRequest] {
        state.withLock { $0.requests }
    }

    /// How many steps are left.
    public var remainingSteps: Int {
        state.withLock { $0.steps.count }
    }

    /// Adds steps at the end of the script.
    public func enqueue(_ steps: Step...) {
        state.withLock { $0.steps.append(contentsOf: steps) }
    }

    /// Records the request and answers with the next step.
    public func send(_ request: HTTPRequest, body: Data?, options: TransportOptions) async throws -> TransportResponse {
        try await answer(request, body: body, options: options, download: nil).response
    }

    /// Records the request and answers with the next step: a ``Step/stream(_:)`` step writes to
    /// the download sink itself; any other answer's body reaches the sink once it is all in, as
    /// from a transport that cannot stream.
    public func send(
        _ request: HTTPRequest,
        body: Data?,
        options: TransportOptions,
        transfer: FileTransfer
    ) async throws -> TransportResponse {
        let answered = try await answer(
            request,
            body: transfer.bufferedBody(body),
            options: options,
            download: transfer.download
        )
        return answered.streamed ? answered.response : try transfer.deliverBuffered(answered.response)
    }

    private func answer(
        _ request: HTTPRequest,
        body: Data?,
        options: TransportOptions,
        download: DownloadSink?
    ) async throws -> (response: TransportResponse, streamed: Bool) {
        try Task.checkCancellation()
        guard let url = request.url else {
            throw TransportError(
                .invalidURL,
                requestMayHaveBeenSent: false,
                message: "The request's scheme, authority and path make no URL."
            )
        }
        let recorded = RecordedRequest(
            request: request,
            body: body,
            url: url,
            time: clock?.monotonicNow() ?? .zero,
            options: options
        )
        let step = state.withLock { state -> Step? in
            state.requests.append(recorded)
            return handler == nil && !state.steps.isEmpty ? state.steps.removeFirst() : nil
        }
        if let handler { return (try await handler(recorded), false) }
        switch step {
        case .respond(let status, let headers, let body):
            let response = TransportResponse(
                response: HTTPResponse(status: .init(code: status), headerFields: headers),
                body: body,
                url: url
            )
            return (response, false)
        case .fail(let error):
            throw error
        case .handle(let handle):
            return (try await handle(recorded), false)
        case .stream(let stream):
            guard let download else {
                throw TransportError(
                    .other,
                    requestMayHaveBeenSent: false,
                    message: "ScriptedTransport's stream step answers a download, not "
                        + "\(request.method.rawValue) \(url.absoluteString)."
                )
            }
            defer { download.close() }
            return (try await stream(recorded, download), true)
        case nil:
            throw TransportError(
                .other,
                requestMayHaveBeenSent: false,
                message: "ScriptedTransport has no step left for \(request.method.rawValue) \(url.absoluteString)."
            )
        }
    }
}

extension ScriptedTransport.Step {
    /// A JSON response.
    public static func json(_ value: JSONValue, status: Int = 200, headers: HTTPFields = [:]) -> Self {
        var fields = headers
        if fields[.contentType] == nil { fields[.contentType] = "application/json" }
        return .respond(status: status, headers: fields, body: value.encoded())
    }

    /// A response with a status, headers and optional text body.
    public static func status(_ status: Int, headers: HTTPFields = [:], body: String = "") -> Self {
        .respond(status: status, headers: headers, body: Data(body.utf8))
    }

    /// A refused connection: nothing reached the server.
    public static var connectionRefused: Self {
        .fail(TransportError(.cannotConnect, requestMayHaveBeenSent: false, message: "Connection refused."))
    }

    /// A URL the transport cannot form a request for (as URLSession on Linux answers an IPv6
    /// literal host): nothing reached the server.
    public static var invalidURL: Self {
        .handle { recorded in
            throw TransportError.invalidURL(recorded.url, "the transport cannot use this URL")
        }
    }

    /// A connection lost after the request may have reached the server.
    public static var connectionLost: Self {
        .fail(TransportError(.connectionLost, requestMayHaveBeenSent: true, message: "Connection lost."))
    }

    /// A timeout.
    public static var timedOut: Self {
        .fail(TransportError(.timedOut, requestMayHaveBeenSent: true, message: "Timed out."))
    }
}
