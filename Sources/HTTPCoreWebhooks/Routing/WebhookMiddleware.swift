/// The rest of the chain after a middleware: the inner middlewares, then the matching handlers.
public typealias WebhookNext<Event: WebhookEventPayload> = @Sendable (Event, WebhookContext) async throws -> Void

/// A handler for the events whose kind matches its pattern.
public typealias WebhookHandler<Event: WebhookEventPayload> = @Sendable (Event, WebhookContext) async throws -> Void

/// Code that runs around the handlers of every verified, new event: logging, timing, tracing,
/// a deadline, or a filter that stops an event by not calling `next`.
///
/// Middlewares run in the order they were added, the first outermost. Throwing fails the
/// delivery like a failing handler does, so the sender retries it.
///
/// ```swift
/// struct Timing: WebhookMiddleware {
///     func intercept<Event: WebhookEventPayload>(
///         _ event: Event, context: WebhookContext, next: WebhookNext<Event>
///     ) async throws {
///         let start = ContinuousClock.now
///         try await next(event, context)
///         print(context.kind, ContinuousClock.now - start)
///     }
/// }
/// ```
public protocol WebhookMiddleware: Sendable {
    /// Runs around `next`, which runs the inner middlewares and the handlers.
    func intercept<Event: WebhookEventPayload>(
        _ event: Event,
        context: WebhookContext,
        next: WebhookNext<Event>
    ) async throws
}
