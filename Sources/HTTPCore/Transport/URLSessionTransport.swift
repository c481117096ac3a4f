public import Foundation
public import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// The default transport: URLSession, on Apple platforms and on Linux (FoundationNetworking).
///
/// It sends one hop: a 3xx comes back as it is (URLSession's own redirect following is switched
/// off) for the client's redirect stage to follow or not. Body limits are enforced while the
/// body streams in, so an oversized response is cut off rather than buffered. URLSession's cookie store and URL cache are off:
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
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: Self.delegateQueue())
    }

    /// Where the session's delegate callbacks run: in place on Linux (see ``InPlaceDelegateQueue``),
    /// URLSession's own serial queue elsewhere. The benchmarks' bare delegate uses it too.
    package static func delegateQueue() -> OperationQueue? {
        #if canImport(FoundationNetworking)
        return InPlaceDelegateQueue.shared
        #else
        return nil
        #endif
    }

    deinit {
        // URLSession keeps its delegate alive until invalidated; let running tasks finish.
        session.finishTasksAndInvalidate()
    }

    /// Sends the request and returns its response, a redirect included.
    public func send(_ request: HTTPRequest, body: Data?, options: TransportOptions) async throws -> TransportResponse {
        try await perform(request, body: body, options: options, transfer: nil)
    }

    /// Sends the request streaming the upload from a file and a successful body to the
    /// transfer's sink.
    public func send(
        _ request: HTTPRequest,
        body: Data?,
        options: TransportOptions,
        transfer: FileTransfer
    ) async throws -> TransportResponse {
        try await perform(request, body: body, options: options, transfer: transfer)
    }

    private func perform(
        _ request: HTTPRequest,
        body: Data?,
        options: TransportOptions,
        transfer: FileTransfer?
    ) async throws -> TransportResponse {
        // The conversion parses the request's URL once, and fails only when there is none.
        guard var urlRequest = URLRequest(httpRequest: request), let url = urlRequest.url else {
            throw TransportError(
                .invalidURL,
                requestMayHaveBeenSent: false,
                message: "The request's scheme, authority and path make no URL."
            )
        }
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        // FoundationNetworking takes a request's timeout only once it has been set, and
        // otherwise uses the configuration's.
        urlRequest.timeoutInterval = Self.timeoutInterval(options.timeout)
        urlRequest.httpBody = body
        let limits = SessionDelegate.Limits(
            body: options.maxBodySize,
            errorBody: options.maxErrorBodySize,
            bodyCanFollow: request.method != .head
        )
        #if canImport(FoundationNetworking)
        // libcurl silently resends a request whose reused keep-alive connection closes before any
        // response byte, even a POST the server has already applied, so a request that is not
        // safe to repeat goes out on a fresh connection, in a session of its own. The operation's
        // own flag counts too: an API that writes with GET marks those endpoints not idempotent.
        if !Self.safeToResend.contains(request.method) || !options.isIdempotent {
            let oneShotDelegate = SessionDelegate()
            let oneShot = URLSession(
                configuration: session.configuration,
                delegate: oneShotDelegate,
                delegateQueue: Self.delegateQueue()
            )
            defer { oneShot.finishTasksAndInvalidate() }
            return try await run(
                urlRequest,
                url: url,
                limits: limits,
                totalTimeout: options.totalTimeout,
                transfer: transfer,
                session: oneShot,
                delegate: oneShotDelegate
            )
        }
        #endif
        return try await run(
            urlRequest,
            url: url,
            limits: limits,
            totalTimeout: options.totalTimeout,
            transfer: transfer,
            session: session,
            delegate: delegate
        )
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
        totalTimeout: Duration?,
        transfer: FileTransfer?,
        session: URLSession,
        delegate: SessionDelegate
    ) async throws -> TransportResponse {
        let task: URLSessionTask
        if let file = transfer?.uploadFile {
            // URLSession reads the file as it sends it.
            task = session.uploadTask(with: urlRequest, fromFile: file)
        } else {
            task = session.dataTask(with: urlRequest)
        }
        var expiry: (any DispatchSourceTimer)?
        defer { expiry?.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.register(
                    task: task,
                    url: url,
                    limits: limits,
                    transfer: transfer,
                    continuation: continuation
                )
                // A cancel that came first may have ended the task before it was registered, and
                // URLSession reports a task's end only once: that call would wait forever.
                if Task.isCancelled {
                    delegate.abandon(task)
                } else {
                    // URLSession's own timeout restarts with every byte; the call's deadline bounds
                    // it all. Armed once the task is registered, so even a timer that fires at once
                    // finds the task to end.
                    expiry = totalTimeout.map { delegate.expire(task, after: $0) }
                    task.resume()
                }
            }
        } onCancel: {
            SessionDelegate.cancel(task)
        }
    }
}
