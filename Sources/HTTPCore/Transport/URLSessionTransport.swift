public import Foundation
public import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// The default transport: URLSession, on Apple platforms and on Linux (FoundationNetworking).
///
/// Redirects are applied by ``RedirectPolicy`` hop by hop (URLSession's own redirect following
/// is switched off) and body limits are enforced while the body streams in, so an oversized
/// response is cut off rather than buffered. URLSession's cookie store and URL cache are off:
/// HTTPCore has its own cache, and cookies would leak state between clients.
public final class URLSessionTransport: HTTPTransport {
    /// A transport shared by every client that does not bring its own.
    public static let shared = URLSessionTransport()

    private let session: URLSession
    private let delegate: SessionDelegate

    /// Creates a transport with its own URLSession built from `configuration`.
    ///
    /// Cookie storage and the URL cache are switched off on the configuration.
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let delegate = SessionDelegate()
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        // URLSession keeps its delegate alive until invalidated; let running tasks finish.
        session.finishTasksAndInvalidate()
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
        guard var urlRequest = URLRequest(httpRequest: request) else {
            throw TransportError(.other, requestMayHaveBeenSent: false, message: "The request has no valid URL.")
        }
        urlRequest.httpBody = body
        urlRequest.timeoutInterval = max(options.timeout.seconds, 0.001)
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        let task = session.dataTask(with: urlRequest)
        let limits = SessionDelegate.Limits(body: options.maxBodySize, errorBody: options.maxErrorBodySize)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.register(task: task, url: url, limits: limits, continuation: continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }
}

/// Receives every task's callbacks for one session and completes each task's continuation.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    struct Limits: Sendable {
        var body: Int
        var errorBody: Int
    }

    private struct TaskState: Sendable {
        var continuation: CheckedContinuation<TransportResponse, any Error>
        var url: URL
        var limits: Limits
        var response: HTTPResponse?
        var data = Data()
        var limitExceeded = false
    }

    private let tasks = Locked<[Int: TaskState]>([:])

    func register(
        task: URLSessionTask,
        url: URL,
        limits: Limits,
        continuation: CheckedContinuation<TransportResponse, any Error>
    ) {
        let state = TaskState(continuation: continuation, url: url, limits: limits)
        tasks.withLock { $0[task.taskIdentifier] = state }
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
        let httpResponse = (response as? HTTPURLResponse)?.httpResponse
        let tooLarge = tasks.withLock { tasks -> Bool in
            guard var state = tasks[dataTask.taskIdentifier] else { return false }
            state.response = httpResponse
            let isError = (httpResponse?.status.code ?? 0) >= 400
            if !isError, response.expectedContentLength > Int64(state.limits.body) {
                state.limitExceeded = true
            }
            tasks[dataTask.taskIdentifier] = state
            return state.limitExceeded
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge = tasks.withLock { tasks -> Bool in
            guard var state = tasks[dataTask.taskIdentifier], !state.limitExceeded else { return false }
            let isError = (state.response?.status.code ?? 0) >= 400
            if isError {
                let room = max(state.limits.errorBody - state.data.count, 0)
                state.data.append(data.prefix(room))
            } else if state.data.count + data.count > state.limits.body {
                state.limitExceeded = true
                state.data = Data()
            } else {
                state.data.append(data)
            }
            tasks[dataTask.taskIdentifier] = state
            return state.limitExceeded
        }
        if tooLarge { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if state.limitExceeded {
            state.continuation.resume(
                throwing: TransportError(
                    .bodyLimitExceeded(limit: state.limits.body),
                    requestMayHaveBeenSent: true,
                    message: "The response body is larger than the \(state.limits.body)-byte limit."
                )
            )
        } else if let error {
            state.continuation.resume(throwing: Self.transportError(from: error))
        } else if let response = state.response {
            state.continuation.resume(returning: TransportResponse(response: response, body: state.data, url: state.url))
        } else {
            state.continuation.resume(
                throwing: TransportError(
                    .invalidResponse,
                    requestMayHaveBeenSent: true,
                    message: "The server's answer was not an HTTP response."
                )
            )
        }
    }

    private static func transportError(from error: any Error) -> any Error {
        guard let urlError = error as? URLError else {
            return TransportError(.other, requestMayHaveBeenSent: true, message: "The request failed.")
        }
        let underlying = URLError(urlError.code)
        switch urlError.code {
        case .cancelled:
            return CancellationError()
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
            .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .badURL, .unsupportedURL:
            return TransportError(
                .cannotConnect,
                requestMayHaveBeenSent: false,
                message: "Could not connect to the server (\(Self.name(of: urlError.code))).",
                underlying: underlying
            )
        case .timedOut:
            return TransportError(
                .timedOut,
                requestMayHaveBeenSent: true,
                message: "The server did not answer in time.",
                underlying: underlying
            )
        case .networkConnectionLost:
            return TransportError(
                .connectionLost,
                requestMayHaveBeenSent: true,
                message: "The connection was lost before a complete response arrived.",
                underlying: underlying
            )
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData,
            .zeroByteResource:
            return TransportError(
                .connectionLost,
                requestMayHaveBeenSent: true,
                message: "The server's response was cut off or malformed.",
                underlying: underlying
            )
        default:
            return TransportError(
                .other,
                requestMayHaveBeenSent: true,
                message: "The request failed (\(Self.name(of: urlError.code))).",
                underlying: underlying
            )
        }
    }

    /// A stable name for a URL error code; the error's own description can include the URL.
    private static func name(of code: URLError.Code) -> String {
        "URLError \(code.rawValue)"
    }
}
