/// Observes what a client does, for logging, metrics and tracing.
///
/// Every method has an empty default, so a hook implements only what it needs. Methods are
/// synchronous and called on the request's task: keep them fast and hand slow work elsewhere.
/// Payloads never contain credentials; URLs and headers are redacted by the client's
/// ``Redactor`` before a hook sees them.
///
/// Events nest: an operation contains one or more attempts, with a retry event between
/// consecutive attempts, and each attempt one request, or one per hop when it followed redirects
/// (its hops share its attempt number).
public protocol Hooks: Sendable {
    /// A call started.
    func operationStarted(_ event: OperationStartEvent)
    /// A call ended.
    func operationEnded(_ event: OperationEndEvent)
    /// A request (an attempt, or a hop of a redirected one) is about to be sent.
    func requestStarted(_ event: RequestStartEvent)
    /// A request finished.
    func requestEnded(_ event: RequestEndEvent)
    /// The client will wait and try again.
    func retryScheduled(_ event: RetryEvent)
    /// The response cache matched, missed, revalidated, stored or evicted an entry.
    func cache(_ event: CacheEvent)
    /// A page of a paginated list arrived (after its call ended; in page order).
    func page(_ event: PageEvent)
    /// An auth strategy refreshed tokens, opened or renewed a session, or failed to.
    func auth(_ event: AuthEvent)
}

extension Hooks {
    /// Does nothing.
    public func operationStarted(_ event: OperationStartEvent) {}
    /// Does nothing.
    public func operationEnded(_ event: OperationEndEvent) {}
    /// Does nothing.
    public func requestStarted(_ event: RequestStartEvent) {}
    /// Does nothing.
    public func requestEnded(_ event: RequestEndEvent) {}
    /// Does nothing.
    public func retryScheduled(_ event: RetryEvent) {}
    /// Does nothing.
    public func cache(_ event: CacheEvent) {}
    /// Does nothing.
    public func page(_ event: PageEvent) {}
    /// Does nothing.
    public func auth(_ event: AuthEvent) {}
}

/// Hooks that do nothing; the client's default. The client skips building events entirely
/// when its hooks are `NoopHooks`, so they cost nothing.
public struct NoopHooks: Hooks {
    /// Creates no-op hooks.
    public init() {}
}

/// Several hooks as one: start events go to them in order, end events in reverse order, so
/// the first hook wraps the others (as a tracing span should wrap a log line).
public struct ChainHooks: Hooks {
    /// The hooks, outermost first.
    public let hooks: [any Hooks]

    /// Chains `hooks`, outermost first.
    public init(_ hooks: any Hooks...) {
        self.hooks = hooks
    }

    /// Chains `hooks`, outermost first.
    public init(_ hooks: [any Hooks]) {
        self.hooks = hooks
    }

    /// Forwards to each hook in order.
    public func operationStarted(_ event: OperationStartEvent) {
        for hook in hooks { hook.operationStarted(event) }
    }

    /// Forwards to each hook in reverse order.
    public func operationEnded(_ event: OperationEndEvent) {
        for hook in hooks.reversed() { hook.operationEnded(event) }
    }

    /// Forwards to each hook in order.
    public func requestStarted(_ event: RequestStartEvent) {
        for hook in hooks { hook.requestStarted(event) }
    }

    /// Forwards to each hook in reverse order.
    public func requestEnded(_ event: RequestEndEvent) {
        for hook in hooks.reversed() { hook.requestEnded(event) }
    }

    /// Forwards to each hook in order.
    public func retryScheduled(_ event: RetryEvent) {
        for hook in hooks { hook.retryScheduled(event) }
    }

    /// Forwards to each hook in order.
    public func cache(_ event: CacheEvent) {
        for hook in hooks { hook.cache(event) }
    }

    /// Forwards to each hook in order.
    public func page(_ event: PageEvent) {
        for hook in hooks { hook.page(event) }
    }

    /// Forwards to each hook in order.
    public func auth(_ event: AuthEvent) {
        for hook in hooks { hook.auth(event) }
    }
}
