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
        var urlRequest = Self.urlRequest(request, url: url)
        urlRequest.httpBody = body
        urlRequest.timeoutInterval = Self.timeoutInterval(options.timeout)
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        let limits = SessionDelegate.Limits(body: options.maxBodySize, errorBody: options.maxErrorBodySize)
        #if canImport(FoundationNetworking)
        // libcurl silently resends a request whose reused keep-alive connection closes before any
        // response byte, even a POST the server has already applied (measured: a body-less POST
        // was applied twice and reported as a success). A request that is not safe to repeat
        // therefore goes out on a fresh connection, in a session of its own. The operation's own
        // flag counts too: an API that writes with GET marks those endpoints not idempotent.
        if !Self.safeToResend.contains(request.method) || !options.isIdempotent {
            let oneShotDelegate = SessionDelegate()
            let oneShot = URLSession(
                configuration: session.configuration,
                delegate: oneShotDelegate,
                delegateQueue: nil
            )
            defer { oneShot.finishTasksAndInvalidate() }
            return try await run(urlRequest, url: url, limits: limits, session: oneShot, delegate: oneShotDelegate)
        }
        #endif
        return try await run(urlRequest, url: url, limits: limits, session: session, delegate: delegate)
    }

    /// The URLRequest for `request`, sent to `url` (the URL the redirect policy already built
    /// from the request, so it is not parsed again). Repeated fields are joined as HTTP/1.1 does:
    /// with `, `, or `; ` for cookies.
    private static func urlRequest(_ request: HTTPRequest, url: URL) -> URLRequest {
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        var joined: [String: String] = Dictionary(minimumCapacity: request.headerFields.count)
        for field in request.headerFields {
            let name = field.name.rawName
            if let existing = joined[name] {
                joined[name] = existing + (field.name == .cookie ? "; " : ", ") + Self.latin1(field)
            } else {
                joined[name] = Self.latin1(field)
            }
        }
        urlRequest.allHTTPHeaderFields = joined
        return urlRequest
    }

    /// A field value as URLSession takes it: each byte one ISO Latin-1 character, as
    /// swift-http-types' own conversion does, so non-ASCII values go out byte for byte.
    private static func latin1(_ field: HTTPField) -> String {
        field.withUnsafeBytesOfValue { bytes in
            guard bytes.contains(where: { $0 >= 0x80 }) else { return field.value }
            var text = ""
            text.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
            return text
        }
    }

    /// Methods a repeat cannot harm (RFC 9110 §9.2.2).
    private static let safeToResend: Set<HTTPRequest.Method> = [.get, .head, .put, .delete, .options, .trace]

    /// URLSession's timeout for `timeout`. FoundationNetworking truncates the interval to whole
    /// seconds, so anything under a second would time out at once; round up instead.
    private static func timeoutInterval(_ timeout: Duration) -> TimeInterval {
        #if canImport(FoundationNetworking)
        return max(timeout.seconds.rounded(.up), 1)
        #else
        return max(timeout.seconds, 0.001)
        #endif
    }

    private func run(
        _ urlRequest: URLRequest,
        url: URL,
        limits: SessionDelegate.Limits,
        session: URLSession,
        delegate: SessionDelegate
    ) async throws -> TransportResponse {
        let task = session.dataTask(with: urlRequest)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.register(
                    task: task,
                    url: url,
                    isHead: urlRequest.httpMethod == "HEAD",
                    limits: limits,
                    continuation: continuation
                )
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
        var isHead: Bool
        var limits: Limits
        var response: HTTPResponse?
        var data = Data()
        var limitExceeded = false
    }

    private let tasks = Locked<[Int: TaskState]>([:])

    func register(
        task: URLSessionTask,
        url: URL,
        isHead: Bool,
        limits: Limits,
        continuation: CheckedContinuation<TransportResponse, any Error>
    ) {
        let state = TaskState(continuation: continuation, url: url, isHead: isHead, limits: limits)
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
        let status = httpResponse?.status.code ?? 0
        let expected = response.expectedContentLength
        let tooLarge = tasks.withLock { tasks -> Bool in
            let id = dataTask.taskIdentifier
            guard let state = tasks[id] else { return false }
            tasks[id]?.response = httpResponse
            // A HEAD, 204 or 304 answer has no body, whatever length it announces (RFC 9110 §8.6):
            // a 304 may carry the full representation's length.
            guard !state.isHead, status != 204, status != 304, expected > 0 else { return false }
            let limit = status >= 400 ? state.limits.errorBody : state.limits.body
            // Refuse up front when the server announces an oversized success body; an error body
            // is cut at its limit instead.
            if status < 400, expected > Int64(limit) {
                tasks[id]?.limitExceeded = true
                return true
            }
            tasks[id]?.data.reserveCapacity(Int(min(expected, Int64(limit))))
            return false
        }
        if tooLarge {
            // FoundationNetworking ignores the disposition and would read the whole body, so the
            // task is cancelled as well; `didCompleteWithError` then reports the limit.
            dataTask.cancel()
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge = tasks.withLock { tasks -> Bool in
            // Mutate the stored state in place: copying it out would copy the body on every chunk.
            let id = dataTask.taskIdentifier
            guard let limits = tasks[id]?.limits, tasks[id]?.limitExceeded == false else { return false }
            let received = tasks[id]?.data.count ?? 0
            if (tasks[id]?.response?.status.code ?? 0) >= 400 {
                let room = max(limits.errorBody - received, 0)
                if room > 0 { tasks[dataTask.taskIdentifier]?.data.append(data.prefix(room)) }
                return false
            }
            if received + data.count > limits.body {
                tasks[dataTask.taskIdentifier]?.limitExceeded = true
                tasks[dataTask.taskIdentifier]?.data = Data()
                return true
            }
            tasks[dataTask.taskIdentifier]?.data.append(data)
            return false
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
            state.continuation.resume(
                returning: TransportResponse(response: response, body: state.data, url: state.url)
            )
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
