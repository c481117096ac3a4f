/// A ``RateLimiter`` that keeps its budgets in this process: at most ``limit`` requests per key
/// in any window of the limit's length.
///
/// Each key has a bucket of ``RequestRate/permits`` tokens; a request spends one, and the token
/// comes back one ``RequestRate/window`` after it was spent. Unlike a bucket that refills at a
/// steady rate (which lets a full bucket plus its refill through, twice the limit, within one
/// window), no window ever sees more than the limit, whether the server counts in fixed or in
/// sliding windows: counted, as the client uses it, from when each permit is granted, which a
/// wait after it (a token refresh, a slow shared cache) puts before the request goes out.
///
/// Waiters are served first come, first served: a request that arrives while others wait queues
/// behind them. A ``pause(_:for:timeSource:)`` holds every waiter of the key until it ends.
///
/// ```swift
/// let limiter = TokenBucketRateLimiter(RequestRate(50, per: .seconds(10)))
/// ```
///
/// Budgets live only as long as the limiter: share one limiter between the clients that share
/// a budget. Keys not used for a window cost nothing.
public final class TokenBucketRateLimiter: RateLimiter {
    /// The rate every key is held to.
    public let limit: RequestRate

    private let buckets = Locked<[String: Bucket]>([:])
    private let nextTicket = Locked<UInt64>(0)

    /// Creates a limiter holding every key to `limit` (at least one permit per window).
    public init(_ limit: RequestRate) {
        self.limit = RequestRate(max(limit.permits, 1), per: max(limit.window, .zero))
    }

    /// Waits, first come first served, until a token for `key` is free and takes it.
    ///
    /// - Throws: `CancellationError` when cancelled while waiting; ``APIError/rateLimit(_:)`` at
    ///   once when the token would come after `deadline`.
    public func acquirePermit(for key: String, deadline: Duration?, timeSource: any TimeSource) async throws {
        let ticket = nextTicket.withLock { next -> UInt64 in
            next &+= 1
            return next
        }
        var queued = false
        while true {
            let now = timeSource.monotonicNow()
            let step = buckets.withLock { buckets -> Step in
                var bucket = buckets[key] ?? Bucket()
                defer { buckets[key] = bucket.isIdle ? nil : bucket }
                return bucket.step(ticket: ticket, queued: queued, now: now, deadline: deadline, limit: limit)
            }
            queued = true
            switch step {
            case .granted:
                return
            case .tooLate(let wait):
                throw APIError.permitAfterDeadline(key: key, wait: wait)
            case .wait(let wait):
                do {
                    try await timeSource.sleep(for: wait)
                    try Task.checkCancellation()
                } catch {
                    buckets.withLock { buckets in
                        buckets[key]?.leave(ticket)
                        if buckets[key]?.isIdle == true { buckets[key] = nil }
                    }
                    throw error
                }
            }
        }
    }

    /// Holds every request under `key` until `duration` from now.
    public func pause(_ key: String, for duration: Duration, timeSource: any TimeSource) async {
        let until = timeSource.monotonicNow() + duration
        buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket()
            bucket.pausedUntil = max(bucket.pausedUntil ?? until, until)
            buckets[key] = bucket
        }
    }

    /// What a waiter does next.
    enum Step: Sendable {
        case granted
        case wait(Duration)
        case tooLate(Duration)
    }

    /// One key's budget: when its spent tokens were spent, who waits, and any pause.
    struct Bucket: Sendable {
        /// When each token spent within the last window was spent, oldest first.
        var spent: [Duration] = []
        /// The tickets of the waiters, first come first.
        var waiters: [UInt64] = []
        /// No request goes out before this time.
        var pausedUntil: Duration?

        /// Nothing to remember: no token out, no waiter, no pause.
        var isIdle: Bool { spent.isEmpty && waiters.isEmpty && pausedUntil == nil }

        /// Grants `ticket` a token if its turn has come, or says how long to wait.
        mutating func step(
            ticket: UInt64,
            queued: Bool,
            now: Duration,
            deadline: Duration?,
            limit: RequestRate
        ) -> Step {
            spent.removeAll { $0 + limit.window <= now }
            if let pause = pausedUntil, pause <= now { pausedUntil = nil }
            if !queued { waiters.append(ticket) }
            guard let position = waiters.firstIndex(of: ticket) else {
                // Not reachable: a ticket leaves the queue only when granted or when it gives up.
                return .tooLate(.zero)
            }
            let due = dueTime(ofPosition: position, now: now, limit: limit)
            if due <= now {
                waiters.remove(at: position)
                spent.append(now)
                return .granted
            }
            if let deadline, due > deadline {
                waiters.remove(at: position)
                return .tooLate(due - now)
            }
            return .wait(due - now)
        }

        /// When the waiter at `position` gets its token if everyone ahead of it takes theirs
        /// when due: the token spent `permits` grants earlier comes back one window after.
        func dueTime(ofPosition position: Int, now: Duration, limit: RequestRate) -> Duration {
            let start = max(now, pausedUntil ?? now)
            var grants = spent
            var due = start
            for _ in 0...position {
                let back = grants.count >= limit.permits ? grants[grants.count - limit.permits] + limit.window : start
                due = max(start, back)
                grants.append(due)
            }
            return due
        }

        mutating func leave(_ ticket: UInt64) {
            waiters.removeAll { $0 == ticket }
        }
    }
}
