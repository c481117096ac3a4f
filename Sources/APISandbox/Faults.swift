/// A failure that ends the connection instead of delivering a well-formed response.
///
/// These are the failures a client cannot recover from by reading a status code, and the ones
/// HTTP client code most often gets wrong; the sandbox produces them on a real socket so the client
/// sees exactly what it would see in production.
@available(macOS 14, iOS 17, tvOS 17, *)
public enum ConnectionFault: String, Sendable, Hashable, Codable, CaseIterable {
    /// The server closes the connection (FIN) before sending a single response byte,
    /// and without running the route, so no side effects happen. If part of the request body is
    /// still unread, the kernel may turn the close into a reset.
    case closeBeforeResponse
    /// The server aborts the connection with a TCP reset (RST) before sending any response byte,
    /// without running the route.
    case resetConnection
    /// The route runs, then the response head declares a `Content-Length` larger than the bytes
    /// that follow, and the connection is closed mid-body.
    case truncatedBody
    /// The route runs (so writes are applied) but the connection is closed before the response is
    /// sent: the case where a retry without an idempotency key duplicates a write.
    case dropResponse
}

/// A fault the sandbox can inject in front of any route.
@available(macOS 14, iOS 17, tvOS 17, *)
public enum SandboxFault: Sendable, Hashable {
    /// Answer `503 Service Unavailable` without running the route.
    case serviceUnavailable
    /// Run the route, so writes are applied, then answer `502 Bad Gateway` instead of its
    /// response, as a gateway does when the origin's answer is lost on the way back.
    case badGatewayAfterRunning
    /// Answer `429 Too Many Requests` with `Retry-After` set to the given number of seconds,
    /// without running the route.
    case tooManyRequests(retryAfterSeconds: Int)
    /// Wait before running the route, to exercise client timeouts.
    case slowResponse(milliseconds: Int)
    /// Break the connection in one of the ways described by ``ConnectionFault``.
    case connection(ConnectionFault)
}

/// Where and how often the sandbox injects faults.
///
/// Injection is deterministic: the optional ``sequence`` is consumed first, one entry per eligible
/// request, and after that each eligible request draws once from a SplitMix64 generator seeded
/// with ``seed``. With requests sent one at a time, the same configuration therefore always
/// produces the same faults, which keeps retry tests reproducible.
@available(macOS 14, iOS 17, tvOS 17, *)
public struct FaultInjection: Sendable, Hashable {
    /// A fault and the chance, from 0 to 1, that an eligible request gets it.
    public struct Rule: Sendable, Hashable {
        /// The fault to inject.
        public var fault: SandboxFault
        /// The chance of injecting it; rules are tried in order and their chances add up, so the
        /// total should not exceed 1.
        public var probability: Double

        /// Creates a rule; keeping rules in an array, not a dictionary, keeps their order and so
        /// the outcome of each random draw stable.
        public init(_ fault: SandboxFault, probability: Double) {
            self.fault = fault
            self.probability = probability
        }
    }

    /// Random faults, drawn after ``sequence`` is used up.
    public var rules: [Rule]
    /// Faults for the first eligible requests, in order; `nil` lets that request through untouched.
    public var sequence: [SandboxFault?]
    /// Seed for the random draws.
    public var seed: UInt64
    /// Path prefixes that are eligible; empty means every path. The control routes
    /// (`/_test/counters`, `/_test/reset`, `/_test/script/{name}/configure`) are never faulted,
    /// so a test can always inspect and reset the sandbox.
    public var pathPrefixes: [String]

    /// Creates a fault plan; the defaults inject nothing.
    public init(
        rules: [Rule] = [],
        sequence: [SandboxFault?] = [],
        seed: UInt64 = 0x5EED,
        pathPrefixes: [String] = []
    ) {
        self.rules = rules
        self.sequence = sequence
        self.seed = seed
        self.pathPrefixes = pathPrefixes
    }

    /// No fault injection at all.
    public static var none: FaultInjection { FaultInjection() }

    func applies(to path: String) -> Bool {
        pathPrefixes.isEmpty || pathPrefixes.contains { path.hasPrefix($0) }
    }
}
