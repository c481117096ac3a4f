import Foundation
import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receives every task's callbacks for one session and completes each task's continuation.
///
/// The body limits are why this delegate exists: URLSession's own async API buffers whatever
/// arrives, while here each part of the body is counted as it comes and the task is stopped
/// once it is over the limit.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    struct Limits: Sendable {
        var body: Int
        var errorBody: Int
        /// False for a HEAD, whose answer has no body whatever length it announces.
        var bodyCanFollow: Bool
    }

    private let tasks = Locked<[Int: TaskState]>([:])

    func register(
        task: URLSessionTask,
        url: URL,
        limits: Limits,
        transfer: FileTransfer? = nil,
        continuation: CheckedContinuation<TransportResponse, any Error>
    ) {
        var state = TaskState(continuation: continuation, url: url, limits: limits)
        state.sink = transfer?.download
        state.uploadProgress = transfer?.uploadProgress
        tasks.withLock { $0[task.taskIdentifier] = state }
    }

    /// Ends the call waiting on `task` with `CancellationError`, unless its end was already
    /// reported, and cancels the task, which is never resumed.
    func abandon(_ task: URLSessionTask) {
        let state = tasks.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        state?.continuation.resume(throwing: CancellationError())
        Self.cancel(task)
    }

    /// Ends `task` with a timeout once `limit` has passed, unless it ended first. The caller
    /// cancels the returned timer when the task ends.
    func expire(_ task: URLSessionTask, after limit: Duration) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + limit.seconds)
        timer.setEventHandler { [tasks] in
            let running = tasks.withLock { tasks -> Bool in
                guard tasks[task.taskIdentifier] != nil else { return false }
                tasks[task.taskIdentifier]?.failure = TransportError(
                    .timedOut,
                    requestMayHaveBeenSent: true,
                    message: "The server's answer did not end within the call's deadline."
                )
                return true
            }
            // On a global queue already, so off the session's work queue.
            if running { task.cancel() }
        }
        timer.resume()
        return timer
    }

    /// Cancels `task` without waiting for the session's work queue (see ``offWorkQueue(_:)``).
    static func cancel(_ task: URLSessionTask) {
        offWorkQueue { task.cancel() }
    }

    /// Runs `call`, which enters the session's work queue synchronously, from another thread on
    /// Linux: the callbacks run on that queue (``InPlaceDelegateQueue``), and a Swift task's
    /// cancellation handler holds a lock that a callback resuming that task's caller waits for.
    static func offWorkQueue(_ call: @escaping @Sendable () -> Void) {
        #if canImport(FoundationNetworking)
        DispatchQueue.global().async(execute: call)
        #else
        call()
        #endif
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // RedirectPolicy decides; URLSession must hand us the 3xx itself.
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let head = (response as? HTTPURLResponse)?.httpResponse
        let expected = response.expectedContentLength
        let tooLarge = tasks.withLock { $0[dataTask.taskIdentifier]?.receive(head, announcing: expected) ?? false }
        if tooLarge {
            // FoundationNetworking ignores the disposition and would read the whole body, so the
            // task is cancelled as well; `didCompleteWithError` then reports the limit.
            Self.cancel(dataTask)
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        // One lookup per callback: a body kept in memory is appended under the lock, a streamed one
        // hands back its sink.
        let (sink, tooLarge): (DownloadSink?, Bool) = tasks.withLock { tasks in
            if let sink = tasks[id]?.streamingTo { return (sink, false) }
            return (nil, tasks[id]?.append(data) ?? false)
        }
        if let sink {
            // Written outside the lock: the other tasks' callbacks need not wait for the disk.
            do {
                try sink.write(data)
            } catch {
                tasks.withLock { $0[id]?.failure = error }
                Self.cancel(dataTask)
            }
            return
        }
        if tooLarge { Self.cancel(dataTask) }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        guard let report = tasks.withLock({ $0[task.taskIdentifier]?.uploadProgress }) else { return }
        report(
            TransferProgress(
                completed: totalBytesSent,
                total: totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil
            )
        )
    }

    #if canImport(FoundationNetworking)
    /// Hands a 401 or 407 to the caller as the answer it is.
    ///
    /// FoundationNetworking turns any such answer that carries a challenge into this callback
    /// once the whole body is in, and has no disposition that then delivers the response: without
    /// a credential to propose, the default handling leaves the task running forever. HTTPCore's
    /// auth strategies answer a 401 themselves, so the head and body already collected complete
    /// the call here, and the challenge is cancelled so the session lets go of the task. Any
    /// other challenge gets the default handling. Either answer goes back through
    /// ``offWorkQueue(_:)``.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let status = (challenge.failureResponse as? HTTPURLResponse)?.statusCode
        let state =
            status == 401 || status == 407 ? tasks.withLock { $0.removeValue(forKey: task.taskIdentifier) } : nil
        if let state { state.continuation.resume(with: state.outcome(error: nil)) }
        let disposition: URLSession.AuthChallengeDisposition =
            state == nil ? .performDefaultHandling : .cancelAuthenticationChallenge
        Self.offWorkQueue { completionHandler(disposition, nil) }
    }
    #endif

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        state.sink?.close()
        state.continuation.resume(with: state.outcome(error: error))
    }
}

/// One task's progress: its head, the body so far, and whether a limit stopped it.
private struct TaskState: Sendable {
    let continuation: CheckedContinuation<TransportResponse, any Error>
    let url: URL
    let limits: SessionDelegate.Limits
    var response: HTTPResponse?
    var data = Data()
    var limitExceeded = false
    /// Whether an error body reached its limit and the task was stopped: the answer is complete
    /// with what was kept, however much more the server would have sent.
    var errorBodyCut = false
    /// Where a successful body goes instead of `data`, for a download to a file.
    var sink: DownloadSink?
    /// The sink, once a successful head has opened it.
    var streamingTo: DownloadSink?
    /// Reports an upload's progress.
    var uploadProgress: (@Sendable (TransferProgress) -> Void)?
    /// Why the task was stopped, when the sink failed.
    var failure: (any Error)?

    init(continuation: CheckedContinuation<TransportResponse, any Error>, url: URL, limits: SessionDelegate.Limits) {
        self.continuation = continuation
        self.url = url
        self.limits = limits
    }

    /// Whether the body is kept only up to the error-body limit: an error's, and during a
    /// download any other answer that does not go to the file (a redirect's), since the download
    /// lifted the success limit for the file's bytes alone.
    private var isCutAtErrorLimit: Bool {
        let code = response?.status.code ?? 0
        return code >= 400 || (sink != nil && !(200..<300).contains(code))
    }

    /// Takes the head; true when the length it announces is already over the success-body limit.
    mutating func receive(_ head: HTTPResponse?, announcing expected: Int64) -> Bool {
        response = head
        if let sink, let head, (200..<300).contains(head.status.code) {
            do {
                try sink.begin(head)
                streamingTo = sink
                return false
            } catch {
                failure = error
                return true
            }
        }
        // A HEAD, 204 or 304 answer has no body, whatever length it announces (RFC 9110 §8.6):
        // a 304 may carry the full representation's length.
        let status = head?.status.code ?? 0
        guard limits.bodyCanFollow, status != 204, status != 304, expected > 0 else { return false }
        // Refuse up front when the server announces an oversized success body; an error body
        // is cut at its limit instead.
        if isCutAtErrorLimit {
            data.reserveCapacity(Int(min(expected, Int64(limits.errorBody))))
            return false
        }
        if expected > Int64(limits.body) {
            limitExceeded = true
            return true
        }
        data.reserveCapacity(Int(expected))
        return false
    }

    /// Takes a part of the body; true when the task must stop: a success body went over its
    /// limit, or an error body reached its own, which ends the answer there rather than waiting
    /// for a server that may never stop sending.
    mutating func append(_ part: Data) -> Bool {
        guard !limitExceeded, !errorBodyCut else { return false }
        if isCutAtErrorLimit {
            let room = max(limits.errorBody - data.count, 0)
            data.append(part.prefix(room))
            errorBodyCut = part.count >= room
            return errorBodyCut
        }
        if data.count + part.count > limits.body {
            limitExceeded = true
            data = Data()
            return true
        }
        data.append(part)
        return false
    }

    /// What the caller gets once the task has ended with `error`.
    func outcome(error: (any Error)?) -> Result<TransportResponse, any Error> {
        if let failure { return .failure(failure) }
        if limitExceeded {
            return .failure(
                TransportError(
                    .bodyLimitExceeded(limit: limits.body),
                    requestMayHaveBeenSent: true,
                    message: "The response body is larger than the \(limits.body)-byte limit."
                )
            )
        }
        // The cancellation that cut an error body short is this side's, not a failure.
        if let error, !errorBodyCut {
            return .failure(TransportError.fromURLSession(error, url: url))
        }
        guard let response else {
            return .failure(
                TransportError(
                    .invalidResponse,
                    requestMayHaveBeenSent: true,
                    message: "The server's answer was not an HTTP response."
                )
            )
        }
        return .success(TransportResponse(response: response, body: data, url: url))
    }
}
