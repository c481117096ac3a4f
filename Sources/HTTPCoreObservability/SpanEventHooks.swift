public import HTTPCore
import Tracing

/// Hooks that add what the pipeline's stages report to the span of the call they happen in: a
/// `retry` event before each retry, a `cache` event for each cache event, an `auth` event for
/// each refresh, login or renewal.
///
/// They find the call's span through the ``TracingMiddleware`` running around the call, since
/// hooks are called on the call's own task; without one they do nothing. `addTracing` installs
/// them with both tracing stages. Page events are not traced: each page is a call of its own,
/// with its own span, and the page event arrives after that span has ended.
///
/// Event attribute names are listed in ``TracingMiddleware/Attribute``.
public struct SpanEventHooks: Hooks {
    /// The name of the span event added to a call span before each retry.
    public static let retryEventName = "retry"
    /// The name of the span event added to a call span for each cache event.
    public static let cacheEventName = "cache"
    /// The name of the span event added to a call span for each refresh, login or renewal.
    public static let authEventName = "auth"

    private typealias Attribute = TracingMiddleware.Attribute

    /// Creates the hooks.
    public init() {}

    /// Adds a `retry` event to the call's span.
    public func retryScheduled(_ event: RetryEvent) {
        CallSpan.current?.span.addEvent(
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
        guard let span = CallSpan.current?.span else { return }
        var attributes: SpanAttributes = [
            Attribute.cacheEvent: .string(event.kind.rawValue),
            Attribute.attempt: .int64(Int64(event.attempt)),
        ]
        if let reason = event.reason { attributes[Attribute.cacheEvictionReason] = reason.rawValue }
        span.addEvent(SpanEvent(name: Self.cacheEventName, attributes: attributes))
    }

    /// Adds an `auth` event to the call's span.
    public func auth(_ event: AuthEvent) {
        guard let span = CallSpan.current?.span else { return }
        var attributes: SpanAttributes = [
            Attribute.authEvent: .string(event.kind.rawValue),
            Attribute.authTrigger: .string(event.trigger.rawValue),
            Attribute.authStrategy: .string(event.strategy),
            Attribute.authDurationMilliseconds: .double(Labels.milliseconds(event.duration)),
        ]
        if let error = event.error { attributes[Attribute.errorType] = error.code.rawValue }
        span.addEvent(SpanEvent(name: Self.authEventName, attributes: attributes))
    }
}
