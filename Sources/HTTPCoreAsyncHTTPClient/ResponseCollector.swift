import AsyncHTTPClient
import Foundation
import HTTPCore
import NIOCore
import NIOHTTP1

/// What one exchange produced: the final response head and its body, read within the limits.
///
/// The body stays in NIO's buffers until the caller's task turns it into `Data` (see
/// ``BodyBuffer``).
struct CollectedResponse: Sendable {
    var head: HTTPResponseHead
    var body: BodyBuffer = BodyBuffer()
}

/// Runs one exchange on one event loop: starts the request there, collects the response,
/// enforces the body limits and the timeout as the bytes arrive, and reports the outcome once.
///
/// Everything happens on the loop the request was started on, the loop AsyncHTTPClient calls a
/// delegate on: the state needs no lock, the timeout is checked there by the loop's
/// ``TimeoutSweeper`` (no timer of its own), and when the connection lives on the same loop
/// AsyncHTTPClient writes the request without another hop. The caller's only cross-thread steps
/// are the hop onto the loop and the resumption when the outcome is known. Reading
/// `HTTPClientResponse.body` instead took a second Swift task for the watchdog, a repeating timer
/// scheduled and cancelled from off the loop, and an async-sequence resumption per body part.
///
/// Failing a callback's future fails the request; AsyncHTTPClient then closes the connection
/// instead of reading the rest of the body, which is what a refused or cut body wants.
final class ResponseCollector: HTTPClientResponseDelegate, TimeoutWatched {
    typealias Response = CollectedResponse

    /// Thrown from a callback to stop reading an error body at its limit; it carries what was
    /// kept, which is a successful result for the caller.
    struct ErrorBodyCut: Error {
        var response: CollectedResponse
    }

    private enum Phase {
        case waitingForHead
        case receivingBody
        case finished
    }

    private struct State {
        var phase = Phase.waitingForHead
        /// Responses seen, redirects included: more than one means the client followed a
        /// redirect itself.
        var responsesSeen = 0
        var head: HTTPResponseHead?
        var body = BodyBuffer()
        /// How many body bytes to keep: the body limit, or the error-body limit from 400 up.
        var cap = 0
        var isErrorStatus = false
        /// When something last arrived (or the request started); the timeout counts from here.
        var lastActivity: NIODeadline
        /// The running request, so cancellation can reach it.
        var task: HTTPClient.Task<CollectedResponse>?
        /// Whether the caller cancelled, possibly before the request started.
        var isCancelled = false
        /// Where the outcome goes; nil once it went there.
        var completion: (@Sendable (Result<CollectedResponse, any Error>) -> Void)?
    }

    private let state: NIOLoopBoundBox<State>
    private let isHead: Bool
    private let maxBodySize: Int
    private let maxErrorBodySize: Int
    /// How long the request may go without the head or further body bytes.
    let timeout: TimeAmount
    private let sweeper: TimeoutSweeper<ResponseCollector>

    /// Creates a collector for one request on `sweeper`'s event loop.
    init(sweeper: TimeoutSweeper<ResponseCollector>, isHead: Bool, options: TransportOptions, started: NIODeadline) {
        self.state = NIOLoopBoundBox.makeBoxSendingValue(State(lastActivity: started), eventLoop: sweeper.eventLoop)
        self.sweeper = sweeper
        self.isHead = isHead
        self.maxBodySize = options.maxBodySize
        self.maxErrorBodySize = options.maxErrorBodySize
        self.timeout = TimeAmount(options.timeout)
    }

    // MARK: Running the exchange

    /// Starts `request` on `client`; call it on the collector's loop. `completion` runs once, on
    /// the loop, with the response or a ``HTTPCore/TransportError`` (or `CancellationError`).
    func start(
        _ request: HTTPClient.Request,
        on client: HTTPClient,
        completion: @escaping @Sendable (Result<CollectedResponse, any Error>) -> Void
    ) {
        if state.value.isCancelled {
            state.value.phase = .finished
            completion(.failure(CancellationError()))
            return
        }
        state.value.completion = completion
        // No `deadline`: AsyncHTTPClient would apply it to the whole exchange, body included.
        let task = client.execute(
            request: request,
            delegate: self,
            eventLoop: .delegate(on: state.eventLoop),
            logger: nil
        )
        state.value.task = task
        if state.value.phase != .finished {
            sweeper.watch(self, now: state.value.lastActivity)
        }
        // The task's future lives on this loop, so this registers without a hop.
        task.futureResult.whenComplete { [self] result in
            let outcome = self.finish(result)
            self.deliver(outcome)
        }
    }

    /// Hands `outcome` to the caller unless an earlier outcome already went.
    private func deliver(_ outcome: Result<CollectedResponse, any Error>) {
        guard let completion = state.value.completion else { return }
        state.value.completion = nil
        completion(outcome)
    }

    /// Cancels the exchange, or makes ``start(_:on:completion:)`` refuse to begin; call it on the
    /// collector's loop.
    func cancel() {
        state.value.isCancelled = true
        guard let task = state.value.task else { return }
        task.fail(reason: CancellationError())
    }

    /// Tidies up once the task's future completes and turns its outcome into the caller's.
    private func finish(_ result: Result<CollectedResponse, any Error>) -> Result<CollectedResponse, any Error> {
        sweeper.forget(self)
        state.value.phase = .finished
        state.value.task = nil
        switch result {
        case .success:
            return result
        case .failure(let cut as ErrorBodyCut):
            return .success(cut.response)
        case .failure(let error):
            // Once a head arrived (a redirect's included) the request certainly reached the server.
            let responseStarted = state.value.responsesSeen > 0
            return .failure(TransportErrorMapping.transportError(from: error, responseStarted: responseStarted))
        }
    }

    // MARK: Timeout

    /// Whether nothing arrived for a whole timeout: no head since the request started, or no body
    /// bytes since the last ones. Called by the sweeper on the loop.
    func hasTimedOut(at now: NIODeadline) -> Bool {
        state.value.phase != .finished && now >= state.value.lastActivity + timeout
    }

    /// Fails the request with a timeout; called by the sweeper on the loop.
    func timeOut() {
        let message: String
        switch state.value.phase {
        case .finished: return
        case .waitingForHead: message = "The server did not answer in time."
        case .receivingBody: message = "The server stopped sending the response body."
        }
        state.value.phase = .finished
        guard let task = state.value.task else { return }
        // Fails the promise on this loop and makes AsyncHTTPClient close the connection.
        task.fail(reason: TransportError(.timedOut, requestMayHaveBeenSent: true, message: message))
    }

    // MARK: HTTPClientResponseDelegate

    func didVisitURL(task: HTTPClient.Task<CollectedResponse>, _: HTTPClient.Request, _: HTTPResponseHead) {
        state.value.responsesSeen += 1
    }

    func didReceiveHead(task: HTTPClient.Task<CollectedResponse>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        if let error = refusal(of: head) {
            state.value.phase = .finished
            return task.eventLoop.makeFailedFuture(error)
        }
        let isErrorStatus = head.status.code >= 400
        let cap = isErrorStatus ? maxErrorBodySize : maxBodySize
        let bodyFollows = bodyCanFollow(head)
        let declared = bodyFollows ? Self.declaredLength(head) : nil
        state.value.head = head
        state.value.isErrorStatus = isErrorStatus
        state.value.cap = cap
        state.value.body = BodyBuffer(expectedLength: declared.map { min($0, cap) })
        state.value.phase = .receivingBody
        state.value.lastActivity = .now()
        if !bodyFollows || declared == 0 {
            // No body can follow (HEAD, 204, 304, a declared length of zero): the whole response
            // is here. Waking the caller now lets its task get going on another core while
            // AsyncHTTPClient returns the connection to its pool; the caller's next request hops
            // onto this loop, so it starts after that return.
            deliver(.success(CollectedResponse(head: head)))
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<CollectedResponse>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let failure: (any Error)? = state.withValue { state in
            state.lastActivity = .now()
            // A HEAD response has no body; anything else on the connection is not ours.
            if isHead { return nil }
            let room = state.cap - state.body.count
            guard buffer.readableBytes > room else {
                state.body.append(buffer)
                return nil
            }
            state.phase = .finished
            guard state.isErrorStatus, let head = state.head else { return Self.limitExceeded(maxBodySize) }
            if room > 0, let kept = buffer.getSlice(at: buffer.readerIndex, length: room) {
                state.body.append(kept)
            }
            defer { state.body = BodyBuffer() }
            return ErrorBodyCut(response: CollectedResponse(head: head, body: state.body))
        }
        guard let failure else { return task.eventLoop.makeSucceededVoidFuture() }
        return task.eventLoop.makeFailedFuture(failure)
    }

    func didReceiveError(task: HTTPClient.Task<CollectedResponse>, _ error: any Error) {
        // AsyncHTTPClient reports a request it could not even build on the thread that started
        // it; that is this loop (see `start`), but the state must never be touched from another.
        guard state.eventLoop.inEventLoop else { return }
        state.value.phase = .finished
    }

    func didFinishRequest(task: HTTPClient.Task<CollectedResponse>) throws -> CollectedResponse {
        state.value.phase = .finished
        guard let head = state.value.head else {
            throw TransportError(
                .invalidResponse,
                requestMayHaveBeenSent: true,
                message: "The response ended before its head."
            )
        }
        let body = state.value.body
        state.value.body = BodyBuffer()
        return CollectedResponse(head: head, body: isHead ? BodyBuffer() : body)
    }

    // MARK: Limits

    /// Why a response must be refused from its head alone, or nil.
    private func refusal(of head: HTTPResponseHead) -> TransportError? {
        if state.value.responsesSeen > 1 {
            return TransportError(
                .redirectRefused,
                requestMayHaveBeenSent: true,
                message: "The HTTPClient followed a redirect itself; create it with redirectConfiguration: .disallow."
            )
        }
        guard (100...999).contains(head.status.code) else {
            return TransportError(
                .invalidResponse,
                requestMayHaveBeenSent: true,
                message: "The server answered with an invalid status code."
            )
        }
        // Refuse a success body that announces it is too large before reading any of it.
        if head.status.code < 400, bodyCanFollow(head),
            let declared = Self.declaredLength(head), declared > maxBodySize
        {
            return Self.limitExceeded(maxBodySize)
        }
        return nil
    }

    /// Whether a body can follow `head`. None follows a HEAD, 1xx, 204 or 304, whatever length the
    /// head announces: a 304 may carry the full representation's length (RFC 9110 §8.6).
    private func bodyCanFollow(_ head: HTTPResponseHead) -> Bool {
        !isHead && head.status.mayHaveResponseBody
    }

    static func limitExceeded(_ limit: Int) -> TransportError {
        TransportError(
            .bodyLimitExceeded(limit: limit),
            requestMayHaveBeenSent: true,
            message: "The response body is larger than the \(limit)-byte limit."
        )
    }

    private static func declaredLength(_ head: HTTPResponseHead) -> Int? {
        head.headers.first(name: "content-length").flatMap { Int($0) }
    }
}
