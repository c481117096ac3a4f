public import HTTPCore

/// ``HTTPCore/Hooks`` that keep every event a client reports, in order, so a test can assert what
/// the pipeline did: which operations and attempts ran, what was retried, cached, paged or
/// re-authenticated.
///
/// ```swift
/// let recorder = HookRecorder()
/// configuration.hooks = recorder
/// _ = try await client.send(Endpoint<JSONValue>(.get, "things/1"))
/// #expect(recorder.events.requestEnds.map(\.status) == [503, 200])
/// ```
public final class HookRecorder: Hooks {
    /// Every event received so far, one list per kind, each in the order it arrived.
    public struct Events: Sendable {
        /// ``HTTPCore/Hooks/operationStarted(_:)`` events.
        public var operationStarts: [OperationStartEvent] = []
        /// ``HTTPCore/Hooks/operationEnded(_:)`` events.
        public var operationEnds: [OperationEndEvent] = []
        /// ``HTTPCore/Hooks/requestStarted(_:)`` events: one per attempt and redirect hop.
        public var requestStarts: [RequestStartEvent] = []
        /// ``HTTPCore/Hooks/requestEnded(_:)`` events.
        public var requestEnds: [RequestEndEvent] = []
        /// ``HTTPCore/Hooks/retryScheduled(_:)`` events.
        public var retries: [RetryEvent] = []
        /// ``HTTPCore/Hooks/cache(_:)`` events.
        public var cache: [CacheEvent] = []
        /// ``HTTPCore/Hooks/page(_:)`` events.
        public var pages: [PageEvent] = []
        /// ``HTTPCore/Hooks/auth(_:)`` events.
        public var auth: [AuthEvent] = []
    }

    private let storage = Locked(Events())

    /// Creates a recorder that has seen nothing.
    public init() {}

    /// A copy of everything recorded so far.
    public var events: Events { storage.withLock { $0 } }

    /// Keeps the event.
    public func operationStarted(_ event: OperationStartEvent) { storage.withLock { $0.operationStarts.append(event) } }
    /// Keeps the event.
    public func operationEnded(_ event: OperationEndEvent) { storage.withLock { $0.operationEnds.append(event) } }
    /// Keeps the event.
    public func requestStarted(_ event: RequestStartEvent) { storage.withLock { $0.requestStarts.append(event) } }
    /// Keeps the event.
    public func requestEnded(_ event: RequestEndEvent) { storage.withLock { $0.requestEnds.append(event) } }
    /// Keeps the event.
    public func retryScheduled(_ event: RetryEvent) { storage.withLock { $0.retries.append(event) } }
    /// Keeps the event.
    public func cache(_ event: CacheEvent) { storage.withLock { $0.cache.append(event) } }
    /// Keeps the event.
    public func page(_ event: PageEvent) { storage.withLock { $0.pages.append(event) } }
    /// Keeps the event.
    public func auth(_ event: AuthEvent) { storage.withLock { $0.auth.append(event) } }
}
