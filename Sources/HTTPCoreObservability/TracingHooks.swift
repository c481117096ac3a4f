public import HTTPCore
import HTTPTypes
public import Tracing

/// Hooks that trace each call with swift-distributed-tracing: a span per call and a child span
/// per attempt, with OpenTelemetry's HTTP client attribute names.
///
/// ```swift
/// configuration.addTracing()   // these hooks plus their middleware, in one line
/// ```
///
/// Hooks observe requests but cannot change them, so putting the trace context into outgoing
/// headers (W3C `traceparent`, or whatever the installed instrument propagates) is the job of
/// ``middleware``, which must also be installed for it to happen. `addTracing` does both.
/// Without the middleware the hooks still record every span, but servers cannot join the trace.
///
/// The call span is named after `OperationMetadata.name` (or the HTTP method when the endpoint
/// has no name), is a child of the caller's `ServiceContext.current` and has kind `internal`.
/// Each attempt span is named after the HTTP method, has kind `client` and is a child of its
/// call's span. Attribute names are listed in ``Attribute``. URLs are the client's redacted
/// ones and headers are never recorded, so a credential cannot reach a span.
///
/// Cache and auth events become `cache` and `auth` span events on the call span. Page events
/// are not traced: each page is a call of its own, with its own span, and the page event only
/// arrives after that span has ended.
///
/// Hook events of one call are matched by their `callID`. The spans of calls in flight are kept
/// in a map bounded by ``maxActiveCalls``; should a call's end event never come, its spans are
/// ended (marked ``Attribute/abandoned``) when the map is full rather than kept for ever.
public final class TracingHooks: Hooks {
    /// The span attribute names these hooks set.
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
        /// Why a span failed: an `APIError.Code` raw value, or the HTTP status for an attempt
        /// answered with 4xx/5xx.
        public static let errorType = "error.type"
        /// On a call span, the endpoint's operation name, when it has one.
        public static let operationName = "httpcore.operation.name"
        /// On a call span, the endpoint's service, when it has one.
        public static let service = "httpcore.operation.service"
        /// On a call span, how many attempts the call made.
        public static let attempts = "httpcore.attempts"
        /// On a call span, retry events: the attempt that failed.
        public static let attempt = "httpcore.attempt"
        /// On a call span, retry events: the wait before the next attempt, in milliseconds.
        public static let retryDelayMilliseconds = "httpcore.retry.delay_ms"
        /// On an attempt span, the server's request id, when it sent one.
        public static let requestID = "httpcore.request_id"
        /// On an attempt span, whether the response came from the client's cache.
        public static let fromCache = "httpcore.from_cache"
        /// On a call span, `true` when the call was cancelled.
        public static let cancelled = "httpcore.cancelled"
        /// `true` on spans ended because their call never reported its end.
        public static let abandoned = "httpcore.abandoned"
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

    /// The name of the span event added to a call span before each retry.
    public static let retryEventName = "retry"
    /// The name of the span event added to a call span for each cache event.
    public static let cacheEventName = "cache"
    /// The name of the span event added to a call span for each refresh, login or renewal.
    public static let authEventName = "auth"

    /// The tracer given at creation; `nil` resolves `InstrumentationSystem.tracer` at the start
    /// of each call, so a task-local tracer bound with `withTracer` is honoured.
    public let tracer: (any Tracer)?
    /// How many calls' spans are kept while waiting for their end events.
    public var maxActiveCalls: Int { registry.limit }

    let registry: SpanRegistry

    /// Creates tracing hooks.
    ///
    /// - Parameters:
    ///   - tracer: The tracer to use instead of the one the application bootstrapped; mostly
    ///     for tests.
    ///   - maxActiveCalls: How many calls in flight are tracked before the oldest is ended.
    public init(tracer: (any Tracer)? = nil, maxActiveCalls: Int = 10_000) {
        self.tracer = tracer
        self.registry = SpanRegistry(limit: max(maxActiveCalls, 1), explicitTracer: tracer)
    }

    /// The middleware that starts each attempt's span and injects its context into the request
    /// headers. Add it to `ClientConfiguration.middlewares` last, so no other middleware
    /// changes the request after it, or use `addTracing`, which does.
    public var middleware: TraceContextMiddleware {
        TraceContextMiddleware(registry: registry)
    }

    /// Starts the call's span under the caller's context.
    public func operationStarted(_ event: OperationStartEvent) {
        let tracer = self.tracer ?? InstrumentationSystem.tracer
        // A call nobody traces costs no span and no bookkeeping.
        guard !(tracer is NoOpTracer) else { return }
        let span = tracer.startSpan(
            Self.spanName(event.operation, event.method),
            context: ServiceContext.current ?? .topLevel,
            ofKind: .internal
        )
        span.updateAttributes { attributes in
            Self.describe(method: event.method, url: event.url, into: &attributes)
            if !event.operation.name.isEmpty { attributes[Attribute.operationName] = event.operation.name }
            if !event.operation.service.isEmpty { attributes[Attribute.service] = event.operation.service }
        }
        registry.begin(event.callID, SpanRegistry.Call(tracer: tracer, operation: span))
    }

    /// Starts the attempt's span, unless the middleware already did.
    public func requestStarted(_ event: RequestStartEvent) {
        guard let call = registry.call(event.callID), call.attempt == nil else { return }
        let span = Self.startAttempt(
            tracer: call.tracer,
            parent: call.operation.context,
            method: event.method,
            url: event.url,
            attempt: event.attempt
        )
        registry.update(event.callID) { $0.attempt = SpanRegistry.Attempt(span: span, ownedByMiddleware: false) }
    }

    /// Records the attempt's outcome and ends its span, unless the middleware owns it.
    public func requestEnded(_ event: RequestEndEvent) {
        guard let attempt = registry.call(event.callID)?.attempt else { return }
        let span = attempt.span
        span.updateAttributes { attributes in
            attributes[Attribute.fromCache] = event.fromCache
            if let requestID = event.requestID { attributes[Attribute.requestID] = requestID }
        }
        if let error = event.error {
            Self.fail(span, with: error)
        } else if let status = event.status {
            Self.record(status: status, on: span)
        }
        guard !attempt.ownedByMiddleware else { return }
        registry.update(event.callID) { $0.attempt = nil }
        span.end()
    }

    /// Adds a `retry` event to the call's span.
    public func retryScheduled(_ event: RetryEvent) {
        guard let call = registry.call(event.callID) else { return }
        call.operation.addEvent(
            SpanEvent(
                name: Self.retryEventName,
                attributes: [
                    Attribute.attempt: .int64(Int64(event.attempt)),
                    Attribute.retryDelayMilliseconds: .double(Labels.milliseconds(event.delay)),
                    Attribute.errorType: .string(event.error.code.rawValue),
                ]
            )
        )
    }

    /// Adds a `cache` event to the call's span.
    public func cache(_ event: CacheEvent) {
        guard let call = registry.call(event.callID) else { return }
        var attributes: SpanAttributes = [
            Attribute.cacheEvent: .string(event.kind.rawValue),
            Attribute.attempt: .int64(Int64(event.attempt)),
        ]
        if let reason = event.reason { attributes[Attribute.cacheEvictionReason] = reason.rawValue }
        call.operation.addEvent(SpanEvent(name: Self.cacheEventName, attributes: attributes))
    }

    /// Adds an `auth` event to the call's span.
    public func auth(_ event: AuthEvent) {
        guard let call = registry.call(event.callID) else { return }
        var attributes: SpanAttributes = [
            Attribute.authEvent: .string(event.kind.rawValue),
            Attribute.authTrigger: .string(event.trigger.rawValue),
            Attribute.authStrategy: .string(event.strategy),
            Attribute.authDurationMilliseconds: .double(Labels.milliseconds(event.duration)),
        ]
        if let error = event.error { attributes[Attribute.errorType] = error.code.rawValue }
        call.operation.addEvent(SpanEvent(name: Self.authEventName, attributes: attributes))
    }

    /// Records the call's outcome and ends its span.
    public func operationEnded(_ event: OperationEndEvent) {
        guard let call = registry.end(event.callID) else { return }
        if let attempt = call.attempt, !attempt.ownedByMiddleware { attempt.span.end() }
        let span = call.operation
        span.updateAttributes { attributes in
            attributes[Attribute.attempts] = event.attempts
            if let status = event.status { attributes[Attribute.statusCode] = status }
            if event.cancelled { attributes[Attribute.cancelled] = true }
        }
        if let error = event.error { Self.fail(span, with: error) }
        span.end()
    }

    // MARK: Shared with the middleware

    static func spanName(_ operation: OperationMetadata, _ method: HTTPRequest.Method) -> String {
        operation.name.isEmpty ? Labels.method(method) : operation.name
    }

    static func describe(method: HTTPRequest.Method, url: String, into attributes: inout SpanAttributes) {
        attributes[Attribute.method] = Labels.method(method)
        if !Labels.isKnown(method) { attributes[Attribute.methodOriginal] = method.rawValue }
        attributes[Attribute.url] = url
        if let server = Labels.server(of: url) {
            attributes[Attribute.serverAddress] = server.address
            if let port = server.port { attributes[Attribute.serverPort] = port }
        }
    }

    static func startAttempt(
        tracer: any Tracer,
        parent: ServiceContext,
        method: HTTPRequest.Method,
        url: String,
        attempt: Int
    ) -> any Span {
        let span = tracer.startSpan(Labels.method(method), context: parent, ofKind: .client)
        span.updateAttributes { attributes in
            describe(method: method, url: url, into: &attributes)
            if attempt > 1 { attributes[Attribute.resendCount] = attempt - 1 }
        }
        return span
    }

    static func record(status: Int, on span: any Span) {
        span.attributes[Attribute.statusCode] = status
        // OpenTelemetry marks a client span failed for 4xx and 5xx, naming the status as the type.
        if status >= 400 {
            span.attributes[Attribute.errorType] = String(status)
            span.setStatus(SpanStatus(code: .error))
        }
    }

    static func fail(_ span: any Span, with error: APIError) {
        span.attributes[Attribute.errorType] = error.code.rawValue
        span.recordError(error)
        span.setStatus(SpanStatus(code: .error))
    }
}

/// The spans of calls in flight, keyed by `callID`, shared by ``TracingHooks`` and its
/// ``TraceContextMiddleware``.
final class SpanRegistry: Sendable {
    struct Attempt: Sendable {
        var span: any Span
        /// The middleware started this span and ends it; the hooks only annotate it.
        var ownedByMiddleware: Bool
    }

    struct Call: Sendable {
        var tracer: any Tracer
        var operation: any Span
        var attempt: Attempt?
    }

    let limit: Int
    let explicitTracer: (any Tracer)?
    private let calls = Locked<[UInt64: Call]>([:])

    init(limit: Int, explicitTracer: (any Tracer)?) {
        self.limit = limit
        self.explicitTracer = explicitTracer
    }

    var count: Int { calls.withLock { $0.count } }

    func begin(_ id: UInt64, _ call: Call) {
        let evicted = calls.withLock { calls -> [Call] in
            var evicted: [Call] = []
            if let previous = calls.removeValue(forKey: id) { evicted.append(previous) }
            // Call ids grow, so the smallest belongs to the oldest call still tracked.
            while calls.count >= limit, let oldest = calls.keys.min() {
                if let call = calls.removeValue(forKey: oldest) { evicted.append(call) }
            }
            calls[id] = call
            return evicted
        }
        for call in evicted { Self.abandon(call) }
    }

    func call(_ id: UInt64) -> Call? {
        calls.withLock { $0[id] }
    }

    func update(_ id: UInt64, _ body: @Sendable (inout Call) -> Void) {
        calls.withLock { calls in
            guard var call = calls[id] else { return }
            body(&call)
            calls[id] = call
        }
    }

    func end(_ id: UInt64) -> Call? {
        calls.withLock { $0.removeValue(forKey: id) }
    }

    private static func abandon(_ call: Call) {
        if let attempt = call.attempt, !attempt.ownedByMiddleware {
            attempt.span.attributes[TracingHooks.Attribute.abandoned] = true
            attempt.span.end()
        }
        call.operation.attributes[TracingHooks.Attribute.abandoned] = true
        call.operation.end()
    }
}
