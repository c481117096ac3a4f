public import HTTPCore

/// A ``HTTPCore/RateLimiter`` whose budgets live in PostgreSQL: every process using the same
/// database shares one budget per key, and together they stay under ``limit``.
///
/// ```swift
/// let limiter = PostgresRateLimiter(database: database, limit: .basecamp)
/// var config = BasecampConfig()
/// config.rateLimiter = limiter
/// ```
///
/// Permits are leased in batches: a process takes up to ``batchSize`` permits in one statement
/// and spends them itself, so most requests cost no round trip. A lease is good for
/// ``leaseLifetime`` on this process's clock, counted from when its statement was sent (time spent
/// waiting for a connection does not count); permits left when it ends go back to the budget
/// with the process's next lease, once: if that statement's answer is lost they stay counted
/// until they age out, since the budget may have taken them back already. The database counts a leased permit for one window plus the
/// lease lifetime from the moment it granted it, on its own clock: a permit is spent at most
/// one lifetime after it was leased, so no window of the server's sees more than the limit,
/// whichever machine sent the requests and however their clocks disagree. The price is a
/// budget of ``RequestRate/permits`` per window plus lifetime (95% of the rate with the default
/// lifetime of a twentieth of the window), and a burst of up to `batchSize` requests from one
/// process; a smaller batch is fairer between processes and costs more round trips.
///
/// A `429` or `503` with `Retry-After` seen by any process pauses the key for all of them
/// (`paused_until` in the key's row, on the database's clock). Processes holding a lease still
/// spend it, so up to `batchSize` requests per process can follow the pause's start.
///
/// Waiters in one process are served first come, first served, and one of them at a time
/// leases for the rest; a waiter's deadline holds while that statement is out. Between processes the first to reach the key's row wins: a process
/// refused for lack of permits waits until the next one frees plus a random moment of up to a
/// hundredth of the window, so processes waiting together take turns at random and none starves.
/// Keys appear in the table and in errors: use account ids, never tokens.
public final class PostgresRateLimiter: RateLimiter, CustomStringConvertible {
    /// The rate every key is held to, by all processes together.
    public let limit: RequestRate
    /// The most permits one lease statement takes.
    public let batchSize: Int
    /// How long a lease's permits may be spent.
    public let leaseLifetime: Duration

    let ledger: any PermitLedger
    /// The most a refused leaser waits past the next free permit, at random, so processes
    /// waiting for the same permit take turns instead of the fastest one always winning it.
    let jitter: Duration
    private let label: String
    private let keys = Locked<[String: KeyState]>([:])
    private let nextTicket = Locked<UInt64>(0)

    /// A limiter sharing its budgets through `database`.
    ///
    /// - Parameters:
    ///   - database: The shared database; its schema gains the `rate_limits` table on first use.
    ///   - limit: The rate all processes together keep per key (at least one permit per window).
    ///   - batchSize: The most permits one lease takes (4; clamped to 1 through the limit).
    ///   - leaseLifetime: How long leased permits stay usable; `nil` for a twentieth of the
    ///     window. Longer leases waste less of a batch and cost more of the rate.
    public convenience init(
        database: PostgresDatabase,
        limit: RequestRate,
        batchSize: Int = 4,
        leaseLifetime: Duration? = nil
    ) {
        let rate = RequestRate(max(limit.permits, 1), per: max(limit.window, .zero))
        let lifetime = max(leaseLifetime ?? rate.window / 20, .zero)
        self.init(
            limit: rate,
            batchSize: batchSize,
            leaseLifetime: lifetime,
            ledger: PostgresPermitLedger(database: database, permits: rate.permits, span: rate.window + lifetime),
            label: database.description,
            jitter: rate.window / 100
        )
    }

    init(
        limit: RequestRate,
        batchSize: Int,
        leaseLifetime: Duration,
        ledger: any PermitLedger,
        label: String,
        jitter: Duration = .zero
    ) {
        self.limit = limit
        self.jitter = jitter
        self.batchSize = min(max(batchSize, 1), limit.permits)
        self.leaseLifetime = leaseLifetime
        self.ledger = ledger
        self.label = label
    }

    /// The rate, the batch size and the database; never the password.
    public var description: String {
        "PostgresRateLimiter(\(limit.permits) per \(limit.window), batches of \(batchSize), in \(label))"
    }

    /// Takes a permit for `key` from the lease in hand, or waits, first come first served,
    /// while one caller leases more from the database.
    ///
    /// - Throws: `CancellationError` when cancelled while waiting; ``HTTPCore/APIError/rateLimit(_:)``
    ///   as soon as the next permit is known to come after `deadline`; ``HTTPCore/APIError/network(_:)``
    ///   when the database cannot be reached.
    public func acquirePermit(for key: String, deadline: Duration?, timeSource: any TimeSource) async throws {
        while true {
            switch try await enter(key, deadline: deadline, timeSource: timeSource) {
            case .granted(let expires):
                // A caller resumed after its lease's lifetime would send outside the budget's
                // window: it gives the permit up (it stays counted) and asks again.
                if timeSource.monotonicNow() < expires { return }
            case .lease:
                return try await leaseAsLeader(key, deadline: deadline, timeSource: timeSource)
            }
        }
    }

    /// Pauses `key` for every process until `duration` from now. This process holds the pause
    /// even when the database cannot be reached to record it.
    public func pause(_ key: String, for duration: Duration, timeSource: any TimeSource) async {
        let wait = max(duration, .zero)
        let until = timeSource.monotonicNow() + wait
        keys.withLock { keys in
            var state = keys[key] ?? KeyState()
            state.pausedUntil = max(state.pausedUntil ?? until, until)
            if let held = state.lease, held.count > 0 { state.unused = held }
            state.lease = nil
            keys[key] = state
        }
        try? await ledger.pause(key, for: wait)
    }

    /// Takes a permit at once, becomes the leasing caller, or queues.
    private func enter(_ key: String, deadline: Duration?, timeSource: any TimeSource) async throws -> Turn {
        let ticket = nextTicket.withLock { next -> UInt64 in
            next &+= 1
            return next
        }
        // The deadline watch ends with the wait, so a queued caller served before its deadline
        // leaves no timer behind.
        var deadlineWatch: Task<Void, Never>?
        defer { deadlineWatch?.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Turn, any Error>) in
                let now = timeSource.monotonicNow()
                var watchesDeadline = false
                let immediate = keys.withLock { keys -> Result<Turn, any Error>? in
                    var state = keys[key] ?? KeyState()
                    defer { keys[key] = state.isIdle ? nil : state }
                    state.expire(now: now)
                    if state.waiters.isEmpty, state.take() { return .success(.granted(expires: state.expires)) }
                    if !state.leasing {
                        state.leasing = true
                        return .success(.lease)
                    }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if let due = state.due, let deadline, due > deadline {
                        return .failure(APIError.permitAfterDeadline(key: key, wait: due - now))
                    }
                    state.waiters.append(Waiter(ticket: ticket, deadline: deadline, continuation: continuation))
                    // A lease statement may be out (the first, or a leader's next after a wait),
                    // and a slow or stalled one must not hold this caller past its deadline.
                    watchesDeadline = deadline != nil
                    return nil
                }
                if let immediate {
                    continuation.resume(with: immediate)
                } else if watchesDeadline, let deadline {
                    deadlineWatch = Task {
                        do {
                            try await timeSource.sleep(for: deadline - timeSource.monotonicNow())
                        } catch {
                            return
                        }
                        self.dropWaiter(ticket, of: key, throwing: APIError.permitAfterDeadline(key: key, wait: nil))
                    }
                }
            }
        } onCancel: {
            dropWaiter(ticket, of: key, throwing: CancellationError())
        }
    }

    /// Ends a queued caller's wait with `error`, if it is still queued.
    private func dropWaiter(_ ticket: UInt64, of key: String, throwing error: any Error) {
        let waiter = keys.withLock { keys -> Waiter? in
            guard let index = keys[key]?.waiters.firstIndex(where: { $0.ticket == ticket }) else { return nil }
            return keys[key]?.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: error)
    }

    /// Leases for this caller and those queued behind it until this caller has a permit,
    /// sleeping while the budget is spent or the key is paused; hands the job on when it ends.
    private func leaseAsLeader(_ key: String, deadline: Duration?, timeSource: any TimeSource) async throws {
        do {
            while true {
                try Task.checkCancellation()
                let now = timeSource.monotonicNow()
                let (returning, pausedUntil) = keys.withLock { keys -> (PermitLease?, Duration?) in
                    keys[key]?.expire(now: now)
                    guard let paused = keys[key]?.pausedUntil else {
                        // Handed over before the statement: were its answer lost after it
                        // committed, giving them back again would free permits that were used.
                        defer { keys[key]?.unused = nil }
                        return (keys[key]?.unused, nil)
                    }
                    return (nil, paused)
                }
                var due = pausedUntil
                var spread = Duration.zero
                if due == nil {
                    let answer = try await ledger.lease(key, want: batchSize, returning: returning, clock: timeSource)
                    let arrived = timeSource.monotonicNow()
                    let granted = keys.withLock { keys -> [Wakeup]? in
                        guard answer.lease.count > 0 else { return nil }
                        return keys[key]?.grant(answer, lifetime: leaseLifetime, now: arrived) ?? []
                    }
                    if let granted {
                        resume(granted)
                        return
                    }
                    due = timeSource.monotonicNow() + answer.wait
                    spread = jitter * Double.random(in: 0...1)
                }
                let next = due ?? now
                let current = timeSource.monotonicNow()
                resume(keys.withLock { $0[key]?.failWaiters(before: next, now: current, key: key) ?? [] })
                if let deadline, next > deadline {
                    throw APIError.permitAfterDeadline(key: key, wait: next - current)
                }
                try await timeSource.sleep(for: min(next + spread, deadline ?? .seconds(Int64.max)) - current)
            }
        } catch {
            resume(keys.withLock { $0[key]?.handOff() ?? [] })
            throw error
        }
    }

    private func resume(_ wakeups: [Wakeup]) {
        for wakeup in wakeups { wakeup.continuation.resume(with: wakeup.result) }
    }
}
