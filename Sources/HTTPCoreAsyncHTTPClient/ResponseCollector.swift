import AsyncHTTPClient
import Foundation
import HTTPCore
import NIOCore
import NIOHTTP1

/// What one exchange produced: the final response head and its body, read within the limits.
struct CollectedResponse: Sendable {
    var head: HTTPResponseHead
    /// The body as NIO read it; the caller's task turns it into `Data`.
    var body: ByteBuffer?
}

/// Runs one exchange on one event loop: starts the request there, collects the response,
/// enforces the body limits, the idle timeout and the call's deadline as the bytes arrive, and
/// reports the outcome once.
///
/// Everything happens on the loop AsyncHTTPClient calls the delegate on, so the state needs no
/// lock and the caller's task is resumed once, with the whole response. Failing a callback's
/// future fails the request; AsyncHTTPClient then closes the connection instead of reading the
/// rest of the body, which is what a refused or cut body wants.
final class ResponseCollector: HTTPClientResponseDelegate {
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
        var body: ByteBuffer?
        /// How many body bytes to keep: the body limit, or the error-body limit from 400 up.
        var cap = 0
        /// Whether the body is cut at the error-body limit rather than refused past the body limit.
        var isCutAtErrorLimit = false
        /// Whether the body goes to the sink.
        var isStreaming = false
        /// Upload bytes sent so far.
        var sent: Int64 = 0
        /// When something last arrived (or the request started); the timeout counts from here.
        var lastActivity: NIODeadline
        /// The timer that checks the timeout, armed until the exchange ends.
        var timer: Scheduled<Void>?
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
    private let timeout: TimeAmount
    /// When the whole exchange must be over, from the call's deadline; `nil` for no bound.
    private let end: NIODeadline?
    /// Where a successful body goes instead of memory, for a download to a file.
    private let sink: DownloadSink?
    /// Reports an upload's progress.
    private let uploadProgress: (@Sendable (TransferProgress) -> Void)?
    /// The upload's length, for its progress.
    private let uploadLength: Int64?
    /// The upload's read-ahead, given a slot back as each chunk is sent.
    private let uploadWindow: UploadWindow?

    /// Creates a collector for one request on `eventLoop`.
    init(
        eventLoop: any EventLoop,
        isHead: Bool,
        options: TransportOptions,
        started: NIODeadline,
        transfer: FileTransfer? = nil,
        uploadWindow: UploadWindow? = nil
    ) {
        self.uploadWindow = uploadWindow
        self.sink = transfer?.download
        self.uploadProgress = transfer?.uploadFile == nil ? nil : transfer?.uploadProgress
        self.uploadLength = transfer?.uploadFile.flatMap { try? TransportError.uploadLength(of: $0) }
        self.state = NIOLoopBoundBox.makeBoxSendingValue(State(lastActivity: started), eventLoop: eventLoop)
        self.isHead = isHead
        self.maxBodySize = options.maxBodySize
        self.maxErrorBodySize = options.maxErrorBodySize
        self.timeout = TimeAmount(options.timeout)
        self.end = options.totalTimeout.map { started + TimeAmount($0) }
    }

    // MARK: Running the exchange

    /// Starts `request` on `client`; call it on the collector's loop. `completion` runs once, on
    /// the loop, with the response or a ``HTTPCore/TransportError`` (or `CancellationError`).
    func start(
        _ request: HTTPClient.Request,
        on client: HTTPClient,
        url: URL,
        completion: @escaping @Sendable (Result<CollectedResponse, any Error>) -> Void
    ) {
        if state.value.isCancelled {
            state.value.phase = .finished
            completion(.failure(CancellationError()))
            return
        }
        state.value.completion = completion
        // No `deadline`: AsyncHTTPClient's would end the exchange as a failure of its own,
        // whatever the phase, while the timer below says which wait ran out.
        let task = client.execute(
            request: request,
            delegate: self,
            eventLoop: .delegate(on: state.eventLoop),
            logger: nil
        )
        state.value.task = task
        if state.value.phase != .finished {
            armTimer(at: nextCheck(idleUntil: state.value.lastActivity + timeout))
        }
        // The task's future lives on this loop, so this registers without a hop.
        task.futureResult.whenComplete { [self] result in
            let outcome = self.finish(result, url: url)
            self.deliver(outcome)
        }
    }

    /// Hands `outcome` to the caller unless an earlier outcome already went.
    private func deliver(_ outcome: Result<CollectedResponse, any Error>) {
        guard let completion = state.value.completion else { return }
        state.value.completion = nil
        completion(outcome)
    }

    /// Cancels the exchange, or makes ``start(_:on:url:completion:)`` refuse to begin; call it on
    /// the collector's loop.
    func cancel() {
        state.value.isCancelled = true
        guard let task = state.value.task else { return }
        task.fail(reason: CancellationError())
    }

    /// Tidies up once the task's future completes and turns its outcome into the caller's.
    private func finish(
        _ result: Result<CollectedResponse, any Error>,
        url: URL
    ) -> Result<CollectedResponse, any Error> {
        state.value.timer?.cancel()
        state.value.timer = nil
        state.value.phase = .finished
        sink?.close()
        uploadWindow?.close()
        state.value.task = nil
        switch result {
        case .success:
            return result
        case .failure(let cut as ErrorBodyCut):
            return .success(cut.response)
        case .failure(let error):
            // Once a head arrived (a redirect's included) the request certainly reached the server.
            let responseStarted = state.value.responsesSeen > 0
            return .failure(
                TransportErrorMapping.transportError(from: error, url: url, responseStarted: responseStarted)
            )
        }
    }

    // MARK: Timeout

    /// Arms the one timer of this exchange. It is not moved as bytes arrive: when it fires, it
    /// times the request out or, if something arrived meanwhile, arms itself again for the new
    /// end of the quiet period (or the deadline, when that comes first).
    private func armTimer(at due: NIODeadline) {
        state.value.timer = state.eventLoop.scheduleTask(deadline: due) { [self] in
            self.checkTimeout()
        }
    }

    /// When the timer must look next: the end of the quiet period, or the deadline if sooner.
    private func nextCheck(idleUntil due: NIODeadline) -> NIODeadline {
        end.map { min($0, due) } ?? due
    }

    private func checkTimeout() {
        state.value.timer = nil
        guard state.value.phase != .finished else { return }
        let now = NIODeadline.now()
        let due = state.value.lastActivity + timeout
        let message: String
        if let end, now >= end {
            message = "The server's answer did not end within the call's deadline."
        } else if now >= due {
            message =
                state.value.phase == .waitingForHead
                ? "The server did not answer in time." : "The server stopped sending the response body."
        } else {
            armTimer(at: nextCheck(idleUntil: due))
            return
        }
        state.value.phase = .finished
        // Fails the promise on this loop and makes AsyncHTTPClient close the connection.
        state.value.task?.fail(reason: TransportError(.timedOut, requestMayHaveBeenSent: true, message: message))
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
        // During a download the success limit is lifted for the file's bytes alone: any other
        // answer (a redirect's) is kept only as far as an error's.
        let isCutAtErrorLimit =
            head.status.code >= 400 || (sink != nil && !(200..<300).contains(head.status.code))
        state.value.head = head
        state.value.isCutAtErrorLimit = isCutAtErrorLimit
        state.value.cap = isCutAtErrorLimit ? maxErrorBodySize : maxBodySize
        state.value.phase = .receivingBody
        state.value.lastActivity = .now()
        if let sink, (200..<300).contains(head.status.code) {
            do {
                try sink.begin(AsyncHTTPClientTransport.httpResponse(from: head))
                state.value.isStreaming = true
            } catch {
                state.value.phase = .finished
                return task.eventLoop.makeFailedFuture(error)
            }
        }
        if !bodyCanFollow(head) || Self.declaredLength(head) == 0 {
            // No body can follow (HEAD, 204, 304, a declared length of zero): the whole response
            // is here, and the caller need not wait for the connection's return to the pool.
            deliver(.success(CollectedResponse(head: head)))
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didSendRequestPart(task: HTTPClient.Task<CollectedResponse>, _ part: IOData) {
        // A body still going out is not an idle exchange: the wait for the server starts after
        // the last part is sent, however long a large upload on a slow link takes.
        state.value.lastActivity = .now()
        uploadWindow?.give()
        guard let uploadProgress else { return }
        state.value.sent += Int64(part.readableBytes)
        uploadProgress(TransferProgress(completed: state.value.sent, total: uploadLength))
    }

    func didReceiveBodyPart(task: HTTPClient.Task<CollectedResponse>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        if let sink, state.value.isStreaming {
            state.value.lastActivity = .now()
            do {
                // Written before the next part is asked for, so memory holds one part at a time.
                try sink.write(Data(buffer.readableBytesView))
                return task.eventLoop.makeSucceededVoidFuture()
            } catch {
                state.value.phase = .finished
                return task.eventLoop.makeFailedFuture(error)
            }
        }
        let failure: (any Error)? = state.withValue { state in
            state.lastActivity = .now()
            // A HEAD response has no body; anything else on the connection is not ours.
            if isHead { return nil }
            let room = state.cap - (state.body?.readableBytes ?? 0)
            guard buffer.readableBytes > room else {
                state.body.append(buffer)
                return nil
            }
            state.phase = .finished
            guard state.isCutAtErrorLimit, let head = state.head else { return Self.limitExceeded(maxBodySize) }
            if room > 0, let kept = buffer.getSlice(at: buffer.readerIndex, length: room) {
                state.body.append(kept)
            }
            defer { state.body = nil }
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
        state.value.body = nil
        return CollectedResponse(head: head, body: isHead ? nil : body)
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

extension Optional where Wrapped == ByteBuffer {
    /// Keeps `part` after the bytes already kept: the first part as it is, later ones copied in.
    fileprivate mutating func append(_ part: ByteBuffer) {
        guard case .some(var kept) = self else {
            self = part
            return
        }
        self = nil
        kept.writeImmutableBuffer(part)
        self = kept
    }
}
