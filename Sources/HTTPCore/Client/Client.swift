public import Foundation
public import HTTPTypes

/// Sends ``Endpoint``s and returns typed values or throws ``APIError``.
///
/// A client is cheap to share: create one per API and base URL and use it from any task.
///
/// ```swift
/// let client = try Client(configuration: ClientConfiguration(baseURL: URL(string: "https://api.example.com/v1")!))
/// let user = try await client.send(Endpoint<User>(.get, "users/42"))
/// ```
///
/// Each call goes through the middleware chain (retry, auth, cache, your own middlewares,
/// request hooks) to the transport, then its response is mapped to an error or decoded.
public final class Client: Sendable {
    /// The configuration the client was created with.
    public let configuration: ClientConfiguration
    /// The validated base URL, without a trailing slash.
    public let baseURL: URL
    /// The transport requests go through.
    public let transport: any HTTPTransport

    private let baseURLString: String
    private let basePseudoHeaders: BasePseudoHeaders?
    private let coding: CodingPair
    /// The outermost stage, which runs the rest of the chain for each attempt.
    private let retry: RetryStage
    private let hooks: (any Hooks)?
    private let redactor: Redactor
    /// The fields every request starts with: the default headers, then `User-Agent` and
    /// `Accept` unless they set them. Built once, as they never change.
    private let baseHeaderFields: HTTPFields
    /// Process-wide, so hooks shared by several clients can key per-call state by `callID`.
    private static let callIDs = Locked<UInt64>(0)

    /// Creates a client.
    ///
    /// - Throws: ``APIError/usage(_:)`` when the base URL is not https (loopback hosts may use
    ///   http, and any host when ``ClientConfiguration/allowsInsecureHTTP``), has no host, or
    ///   carries a query.
    public init(
        configuration: ClientConfiguration,
        transport: any HTTPTransport = URLSessionTransport.shared
    ) throws {
        self.configuration = configuration
        self.baseURL = try URLPolicy.validatedBaseURL(
            configuration.baseURL,
            allowingInsecureHTTP: configuration.allowsInsecureHTTP
        )
        self.baseURLString = baseURL.absoluteString
        self.basePseudoHeaders = BasePseudoHeaders(baseURL: baseURL, text: baseURLString)
        self.transport = transport
        self.coding = CodingPair(json: configuration.json)
        var baseHeaderFields = configuration.defaultHeaders
        if let userAgent = configuration.userAgent, baseHeaderFields[.userAgent] == nil {
            baseHeaderFields[.userAgent] = userAgent
        }
        if baseHeaderFields[.accept] == nil { baseHeaderFields[.accept] = "application/json" }
        self.baseHeaderFields = baseHeaderFields
        self.hooks = configuration.hooks is NoopHooks ? nil : configuration.hooks
        let redactor = configuration.auth.map { configuration.redactor.merging($0.redactor) } ?? configuration.redactor
        self.redactor = redactor

        var redirectPolicy = configuration.redirectPolicy
        redirectPolicy.credentialHeaders.formUnion(redactor.secretHeaders)
        let options = TransportOptions(
            timeout: configuration.timeout,
            maxBodySize: configuration.maxResponseBodySize,
            maxErrorBodySize: configuration.maxErrorBodySize,
            redirectPolicy: redirectPolicy
        )
        // The stages inside retry, outermost first: auth and cache as they are configured, then
        // the user's middlewares, then the request hooks next to the transport.
        var middlewares: [any Middleware] = []
        if let auth = configuration.auth {
            middlewares.append(
                AuthMiddleware(
                    strategy: auth,
                    baseURL: baseURL,
                    timeSource: configuration.timeSource,
                    hooks: hooks,
                    defaultHeaders: configuration.defaultHeaders,
                    userAgent: configuration.userAgent,
                    json: configuration.json,
                    transport: transport,
                    options: options
                )
            )
        }
        if let cache = configuration.cache {
            // Inside auth, so entries are keyed by the credentials each attempt carries.
            middlewares.append(CacheMiddleware(cache: cache, hooks: hooks, timeSource: configuration.timeSource))
        }
        middlewares += configuration.middlewares
        if let hooks {
            middlewares.append(RequestHooksStage(hooks: hooks, requestIDHeader: configuration.requestIDHeader))
        }
        let terminal = TransportStage(transport: transport, options: options, timeSource: configuration.timeSource)
        var inner: MiddlewareNext?
        if !middlewares.isEmpty {
            var next: MiddlewareNext = { request, body, context in
                try await terminal.send(request, body: body, context: context)
            }
            for middleware in middlewares.reversed() {
                let rest = next
                next = { request, body, context in
                    try await middleware.intercept(request, body: body, context: context, next: rest)
                }
            }
            inner = next
        }
        self.retry = RetryStage(
            policy: configuration.retry,
            budget: configuration.retryBudget.map(RetryBudgetLedger.init(budget:)),
            timeSource: configuration.timeSource,
            hooks: hooks,
            idempotencyKeyHeader: configuration.idempotencyKeyHeader,
            requestIDHeader: configuration.requestIDHeader,
            inner: inner,
            transport: terminal
        )
    }

    /// Sends `endpoint` and returns its decoded value.
    ///
    /// - Throws: ``APIError`` for every failure; `CancellationError` when the task is cancelled.
    public func send<Value>(_ endpoint: Endpoint<Value>) async throws -> Value {
        try await response(endpoint).value
    }

    /// Sends `endpoint` and returns its decoded value with status, headers, request id and
    /// raw body.
    ///
    /// - Throws: ``APIError`` for every failure; `CancellationError` when the task is cancelled.
    public func response<Value>(_ endpoint: Endpoint<Value>) async throws -> Response<Value> {
        try await response(endpoint, beforeDecoding: nil)
    }

    /// Called with a successful response's head and URL once its body is in, before the body is
    /// decoded; pagination reads the next link there so the next request overlaps the decode.
    typealias HeadObserver = @Sendable (_ response: HTTPResponse, _ url: URL) -> Void

    /// ``response(_:)``, telling `beforeDecoding` about a 2xx answer before decoding it.
    ///
    /// Always inlined, so `send` and `response(_:)`, on every request's path, gain no extra
    /// async frame for pagination's hook.
    @inline(__always)
    func response<Value>(
        _ endpoint: Endpoint<Value>,
        beforeDecoding observer: HeadObserver?
    ) async throws -> Response<Value> {
        let (request, body) = try makeRequest(for: endpoint)
        var context = RequestContext(
            operation: endpoint.operation,
            callID: Self.callIDs.withLock { id -> UInt64 in
                id &+= 1
                return id
            },
            isIdempotent: endpoint.isIdempotent,
            redactor: redactor,
            deadline: (endpoint.deadline ?? configuration.deadline).map { configuration.timeSource.monotonicNow() + $0 }
        )
        guard let hooks else {
            return try await perform(endpoint, request: request, body: body, context: context, observer: observer)
        }
        let attempts = AttemptCounter()
        context.attemptCounter = attempts
        let url = request.urlText.map(redactor.redact(urlString:)) ?? ""
        let started = configuration.timeSource.monotonicNow()
        hooks.operationStarted(
            OperationStartEvent(operation: endpoint.operation, method: request.method, url: url, callID: context.callID)
        )
        var end = OperationEndEvent(
            operation: endpoint.operation,
            method: request.method,
            url: url,
            callID: context.callID,
            duration: .zero,
            status: nil,
            attempts: 1,
            error: nil,
            cancelled: false
        )
        do {
            let result = try await perform(endpoint, request: request, body: body, context: context, observer: observer)
            end.attempts = attempts.value
            end.status = result.status.code
            end.duration = configuration.timeSource.monotonicNow() - started
            hooks.operationEnded(end)
            return result
        } catch {
            end.duration = configuration.timeSource.monotonicNow() - started
            end.attempts = attempts.value
            if let apiError = error as? APIError {
                end.error = apiError
                end.status = apiError.httpStatus
            } else {
                end.cancelled = true
            }
            hooks.operationEnded(end)
            throw error
        }
    }

    /// The URL `endpoint` is sent to: the base URL joined with its path, plus its query.
    ///
    /// - Throws: ``APIError/usage(_:)`` when the path makes no valid URL or an absolute URL
    ///   breaks the https rule.
    public func url<Value>(for endpoint: Endpoint<Value>) throws -> URL {
        let joined = joinedURL(for: endpoint)
        return try parsedTarget(joined).url
    }

    /// Where a request goes: a relative path's `:path` pseudo-header, or a parsed URL.
    private enum Target {
        case path(String)
        case url(URL)
    }

    private func joinedURL<Value>(for endpoint: Endpoint<Value>) -> JoinedURL {
        JoinedURL(base: baseURLString, path: Self.escapingPath(endpoint.path), query: endpoint.query)
    }

    /// The endpoint's target. A path relative to the base URL whose text any URL parser accepts
    /// as it is becomes the `:path` pseudo-header without parsing the URL: the request is built
    /// from strings, and the transport parses the URL once when it needs one.
    private func target<Value>(for endpoint: Endpoint<Value>) throws -> Target {
        let joined = joinedURL(for: endpoint)
        if !joined.isAbsolute, let base = basePseudoHeaders, Self.isPlainURLText(joined.suffix) {
            return .path(base.requestPath(suffix: joined.suffix))
        }
        let parsed = try parsedTarget(joined)
        return parsed.requestPath.map(Target.path) ?? .url(parsed.url)
    }

    /// The joined URL parsed and checked and, for a path relative to the base URL, the request's
    /// `:path` pseudo-header (path and query).
    private func parsedTarget(_ joined: JoinedURL) throws -> (url: URL, requestPath: String?) {
        guard let url = URL(string: joined.text) else {
            throw APIError.usage("\"\(redactor.redact(urlString: joined.text))\" is not a valid URL.")
        }
        if joined.isAbsolute {
            try URLPolicy.checkedTarget(url, allowingInsecureHTTP: configuration.allowsInsecureHTTP)
            return (url, nil)
        }
        // A relative path keeps the base URL's scheme and host, which `init` already checked.
        // A fragment would end the path early, so such a path is left to the URL parser.
        guard let base = basePseudoHeaders, !joined.suffix.utf8.contains(UInt8(ascii: "#")) else { return (url, nil) }
        return (url, base.requestPath(suffix: joined.suffix))
    }

    /// Whether `text`, already limited by `escapingPath` and query encoding to characters a URL
    /// may carry, also has no fragment and only complete `%XX` escapes, so no URL parser, strict
    /// or lenient, would reject or rewrite it.
    private static func isPlainURLText(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "#"):
                return false
            case UInt8(ascii: "%"):
                guard let high = bytes.next(), let low = bytes.next(), isHexDigit(high), isHexDigit(low) else {
                    return false
                }
            default:
                continue
            }
        }
        return true
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default:
            false
        }
    }

    /// The HTTP request and encoded body `endpoint` produces, before any middleware runs.
    ///
    /// - Throws: ``APIError/usage(_:)`` for an invalid URL or a body that cannot be encoded.
    public func makeRequest<Value>(for endpoint: Endpoint<Value>) throws -> (HTTPRequest, Data?) {
        var request: HTTPRequest
        switch try target(for: endpoint) {
        case .path(let path):
            // Same fields as `HTTPRequest(method:url:)` gives, without taking the URL apart.
            request = HTTPRequest(
                method: endpoint.method,
                scheme: basePseudoHeaders?.scheme,
                authority: basePseudoHeaders?.authority,
                path: path
            )
        case .url(let url):
            request = HTTPRequest(method: endpoint.method, url: url)
        }
        request.headerFields = baseHeaderFields
        var bodyData: Data?
        if let body = endpoint.body {
            do {
                let encoded = try body.encoded(with: coding.encoder)
                bodyData = encoded.data
                request.headerFields[.contentType] = encoded.contentType
            } catch {
                throw APIError.usage(
                    Details(
                        message: "The request body could not be encoded: \(error)",
                        cause: SendableDescription(error)
                    )
                )
            }
        }
        for field in endpoint.headers {
            request.headerFields[field.name] = nil
        }
        request.headerFields.append(contentsOf: endpoint.headers)
        return (request, bodyData)
    }

    private typealias Details = APIError.Details

    /// Runs the call through the chain and decodes its answer.
    ///
    /// Always inlined, and generic only where it must be: sending and status mapping happen in a
    /// non-generic async function, decoding in a small synchronous one, so an unspecialised call
    /// does its per-type work once instead of across every async frame.
    @inline(__always)
    private func perform<Value>(
        _ endpoint: Endpoint<Value>,
        request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        observer: HeadObserver?
    ) async throws -> Response<Value> {
        let result = try await exchange(request, body: body, context: context)
        observer?(result.response, result.url)
        return try decoded(result, with: endpoint.decoder)
    }

    /// Sends one call through the chain and returns its 2xx answer.
    ///
    /// - Throws: the ``APIError`` for any other answer or a failure.
    private func exchange(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext
    ) async throws
        -> TransportResponse
    {
        let result: TransportResponse
        do {
            result = try await retry.run(request, body: body, context: context)
        } catch {
            throw ErrorMapping.apiError(from: error, isIdempotent: context.isIdempotent)
        }
        guard (200..<300).contains(result.response.status.code) else {
            let errorResponse = ErrorResponse(
                response: result.response,
                body: result.body,
                requestID: result.response.headerFields.joinedValue(for: configuration.requestIDHeader),
                receivedAt: configuration.timeSource.now()
            )
            throw configuration.errorBodyDecoder?.decode(errorResponse) ?? errorResponse.standardError
        }
        return result
    }

    /// The endpoint's value decoded from a 2xx answer, with the answer's details.
    ///
    /// - Throws: ``APIError/apiError(_:)`` naming what failed to decode.
    private func decoded<Value>(
        _ result: TransportResponse,
        with decoder: ResponseDecoder<Value>
    ) throws
        -> Response<Value>
    {
        let requestID = result.response.headerFields.joinedValue(for: configuration.requestIDHeader)
        let value: Value
        do {
            value = try decoder.decode(result.body, result.response, coding.decoder)
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError.apiError(
                Details(
                    message: DecodingFailure.describe(error),
                    httpStatus: result.response.status.code,
                    requestID: requestID,
                    cause: SendableDescription(error)
                )
            )
        }
        return Response(
            value: value,
            status: result.response.status,
            headers: result.response.headerFields,
            requestID: requestID,
            body: result.body,
            url: result.url,
            fromCache: result.fromCache
        )
    }

    /// Percent-encodes characters that may not appear in a URL, leaving existing escapes,
    /// separators and any query in the path as they are.
    private static func escapingPath(_ path: String) -> String {
        guard path.utf8.contains(where: { !allowedInPath[Int($0)] }) else { return path }
        var result = ""
        for byte in path.utf8 {
            if allowedInPath[Int(byte)] {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// Whether each byte may stay unescaped in a path, indexed by the byte: a table, because a
    /// set hashed every byte of every path.
    private static let allowedInPath: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?%#".utf8 {
            table[Int(byte)] = true
        }
        return table
    }()
}

/// The base URL's `:scheme`, `:authority` and `:path`, taken apart once per client so each
/// request to a relative path is built from strings instead of by parsing its URL.
private struct BasePseudoHeaders: Sendable {
    let scheme: String
    let authority: String?
    /// The base URL's path, `/` when it has none.
    let path: String

    init?(baseURL: URL, text: String) {
        // A fragment in the base would swallow every path joined to it; leave that to the parser.
        guard !text.utf8.contains(UInt8(ascii: "#")) else { return nil }
        let base = HTTPRequest(method: .get, url: baseURL)
        guard let scheme = base.scheme, let path = base.path else { return nil }
        self.scheme = scheme
        self.authority = base.authority
        self.path = path
    }

    /// The `:path` of the URL `base + suffix`, where `suffix` is empty, starts with `/` or starts
    /// with `?`.
    func requestPath(suffix: String) -> String {
        guard suffix.utf8.first == UInt8(ascii: "/") else { return path + suffix }
        return path == "/" ? suffix : path + suffix
    }
}

/// An encoder and decoder built once per client from its ``JSONCoding``.
///
/// Foundation's coders are not thread-safe to configure but are safe to use concurrently once
/// configured; these are configured in `init` and never mutated afterwards.
private struct CodingPair: Sendable {
    let encoder: JSONEncoder
    let decoder: JSONDecoder

    init(json: JSONCoding) {
        encoder = json.makeEncoder()
        decoder = json.makeDecoder()
    }
}

/// An error's description, kept as a `Sendable` cause when the original error type is not.
public struct SendableDescription: Error, Sendable, CustomStringConvertible {
    /// The original error's description.
    public let description: String

    /// Captures `error`'s description.
    public init(_ error: any Error) {
        description = String(describing: error)
    }
}
