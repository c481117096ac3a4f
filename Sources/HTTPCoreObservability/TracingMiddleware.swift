public import Foundation
public import HTTPCore
public import HTTPTypes
public import Tracing

/// A call middleware that wraps each call in a span, as Hummingbird's tracing middleware wraps
/// each request: the span starts when the call does and ends when it does, after every attempt,
/// wait and decoding.
///
/// ```swift
/// configuration.addTracing()   // this, its attempt spans and its span events, in one line
/// ```
///
/// Install it in `ClientConfiguration.callMiddlewares`, first, so its span wraps the rest of the
/// call. The span is named after `OperationMetadata.name` (or the HTTP method when the endpoint
/// has no name), is a child of the caller's `ServiceContext.current` and has kind `internal`.
/// Attribute names are listed in ``Attribute``. URLs are the client's redacted ones and headers
/// are never recorded, so a credential cannot reach a span.
///
/// While the call runs, its span is the parent of the attempt spans ``TraceContextMiddleware``
/// starts and takes the events ``SpanEventHooks`` add. It is handed to them through a task-local
/// of this module rather than as `ServiceContext.current`: a page walk starts the next page's
/// call from inside this one, and that call must be this one's sibling, not its child.
public struct TracingMiddleware: Middleware {
    /// The span attribute names the tracing stages set.
    public enum Attribute {
        /// The HTTP method, or `_OTHER` for a non-standard one.
        public static let method = "http.request.method"
        /// A non-standard HTTP method as sent.
        public static let methodOriginal = "http.request.method_original"
        /// The HTTP status, when a response arrived.
        public static let statusCode = "http.response.status_code"
        /// The host the request went to.
        public static let serverAddress = "server.address"
        /// The port the request went to (443/80 when the URL names none).
        public static let serverPort = "server.port"
        /// The request URL with secret query values and passwords replaced.
        public static let url = "url.full"
        /// On an attempt span, how many times the request had been sent before (absent on the
        /// first attempt).
        public static let resendCount = "http.request.resend_count"
        /// Why a span failed: an `APIError.Code` raw value, `file_write` for a download whose file
        /// could not be written, or the HTTP status for an attempt answered with 4xx/5xx.
        public static let errorType = "error.type"
        /// On a call span, the endpoint's operation name, when it has one.
        public static let operationName = "httpcore.operation.name"
        /// On a call span, the endpoint's service, when it has one.
        public static let service = "httpcore.operation.service"
        /// On a call span, how many attempts the call made.
        public static let attempts = "httpcore.attempts"
        /// On a call span, retry and cache events: the attempt they belong to.
        public static let attempt = "httpcore.attempt"
        /// On a call span, retry events: the wait before the next attempt, in milliseconds.
        public static let retryDelayMilliseconds = "httpcore.retry.delay_ms"
        /// On an attempt span, the server's request id, when it sent one.
        public static let requestID = "httpcore.request_id"
        /// On an attempt span, whether the response came from the client's cache.
        public static let fromCache = "httpcore.from_cache"
        /// On a call span, `true` when the call was cancelled.
        public static let cancelled = "httpcore.cancelled"
        /// On `cache` events: `hit`, `miss`, `revalidated`, `stored` or `evicted`.
        public static let cacheEvent = "httpcore.cache.event"
        /// On `cache` events for an eviction: why, e.g. `capacity`.
        public static let cacheEvictionReason = "httpcore.cache.eviction_reason"
        /// On `auth` events: what the strategy did, e.g. `refreshed`.
        public static let authEvent = "httpcore.auth.event"
        /// On `auth` events: `initial`, `expiry` or `rejected`.
        public static let authTrigger = "httpcore.auth.trigger"
        /// On `auth` events: the strategy's type name.
        public static let authStrategy = "httpcore.auth.strategy"
        /// On `auth` events: how long the refresh or login took, in milliseconds.
        public static let authDurationMilliseconds = "httpcore.auth.duration_ms"
    }

    /// The tracer given at creation; `nil` resolves `InstrumentationSystem.tracer` at the start
    /// of each call, so a task-local tracer bound with `withTracer` is honoured.
    public let tracer: (any Tracer)?

    /// Creates the call stage.
    ///
    /// - Parameter tracer: The tracer to use instead of the one the application bootstrapped;
    ///   mostly for tests.
    public init(tracer: (any Tracer)? = nil) {
        self.tracer = tracer
    }

    /// Runs the call inside its span and records how it ended.
    public func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        let tracer = self.tracer ?? InstrumentationSystem.tracer
        // A call nobody traces costs no span.
        guard !(tracer is NoOpTracer) else { return try await next(request, body, context) }
        let span = tracer.startSpan(
            Spans.name(context.operation, request.method),
            context: ServiceContext.current ?? .topLevel,
            ofKind: .internal
        )
        defer { span.end() }
        span.updateAttributes { attributes in
            Spans.describe(request, redactor: context.redactor, into: &attributes)
            if !context.operation.name.isEmpty { attributes[Attribute.operationName] = context.operation.name }
            if !context.operation.service.isEmpty { attributes[Attribute.service] = context.operation.service }
        }
        let call = CallSpan(span: span, tracer: tracer)
        do {
            let result = try await CallSpan.$current.withValue(call) {
                try await next(request, body, context)
            }
            span.updateAttributes { attributes in
                attributes[Attribute.attempts] = context.attemptsMade
                attributes[Attribute.statusCode] = result.response.status.code
            }
            return result
        } catch {
            span.attributes[Attribute.attempts] = context.attemptsMade
            // The client's answer stage maps every failure from inside; a call middleware's own
            // failure is mapped the way the caller will see it.
            if let apiError = ErrorMapping.apiError(from: error, isIdempotent: context.isIdempotent) as? APIError {
                if let status = apiError.httpStatus { span.attributes[Attribute.statusCode] = status }
                Spans.fail(span, with: apiError)
            } else if let fileError = error as? FileWriteError {
                Spans.fail(span, with: fileError, type: Labels.fileWriteErrorCode)
            } else {
                span.attributes[Attribute.cancelled] = true
            }
            throw error
        }
    }
}

/// The span of the call the current task is making, and the tracer that started it.
struct CallSpan: Sendable {
    @TaskLocal static var current: CallSpan?

    let span: any Span
    let tracer: any Tracer
}
