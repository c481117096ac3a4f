public import HTTPCore

/// Everything that shapes a ``Sandbox`` before it starts.
@available(macOS 14, iOS 17, tvOS 17, *)
public struct SandboxConfiguration: Sendable {
    /// Extra routes, typically one module per SDK sandbox, mounted after the built-in `/_test/` routes.
    public var modules: [any SandboxModule]
    /// The fault plan in force at start and restored by `POST /_test/reset`.
    public var faults: FaultInjection
    /// Whether `POST /_test/writes` deduplicates by `Idempotency-Key`, like a well-behaved API.
    /// Turning it off models a server that ignores the header, so a test can show a client
    /// would otherwise duplicate writes.
    public var honoursIdempotencyKeys: Bool
    /// Log every request at info level; useful when running `api-sandbox` by hand, noisy in tests.
    public var logRequests: Bool
    /// The server's own clock, which every response's `Date` header is read from; `nil` (the
    /// default) uses the system's. A ``SkewedClock`` plays a server whose clock is wrong.
    public var clock: (any TimeSource)?

    /// Creates a configuration; the defaults give a fault-free sandbox that honours idempotency keys.
    public init(
        modules: [any SandboxModule] = [],
        faults: FaultInjection = .none,
        honoursIdempotencyKeys: Bool = true,
        logRequests: Bool = false,
        clock: (any TimeSource)? = nil
    ) {
        self.modules = modules
        self.faults = faults
        self.honoursIdempotencyKeys = honoursIdempotencyKeys
        self.logRequests = logRequests
        self.clock = clock
    }
}
