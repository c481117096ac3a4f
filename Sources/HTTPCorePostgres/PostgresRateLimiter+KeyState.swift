import HTTPCore

extension PostgresRateLimiter {
    /// What a caller does after asking for a permit.
    enum Turn: Sendable {
        /// It has a permit, to spend before `expires`: one handed over later is given up.
        case granted(expires: Duration)
        /// It is the one to lease more from the database, for itself and those queued behind it.
        case lease
    }

    /// A caller queued for a permit.
    struct Waiter: Sendable {
        let ticket: UInt64
        let deadline: Duration?
        let continuation: CheckedContinuation<Turn, any Error>
    }

    /// A continuation to resume once the lock is released.
    typealias Wakeup = (continuation: CheckedContinuation<Turn, any Error>, result: Result<Turn, any Error>)

    /// One key's permits in this process: the lease in hand, the callers waiting for it, and
    /// whether one of them is leasing more.
    struct KeyState: Sendable {
        /// Permits in hand, usable until ``expires`` (this process's monotonic clock).
        var lease: PermitLease?
        var expires: Duration = .zero
        /// Permits of an expired lease never used: given back with the next lease statement.
        var unused: PermitLease?
        /// Callers waiting, first come first.
        var waiters: [Waiter] = []
        /// Whether a caller is leasing (at most one per key, so callers do not stampede the row).
        var leasing = false
        /// When the leasing caller expects the next permit; queued callers whose deadline is
        /// earlier fail at once.
        var due: Duration?
        /// A pause this process saw, held here too should the database not be reachable.
        var pausedUntil: Duration?

        var isIdle: Bool {
            lease == nil && unused == nil && waiters.isEmpty && !leasing && pausedUntil == nil
        }

        /// Moves an expired lease's permits to ``unused`` and forgets a pause that ended.
        mutating func expire(now: Duration) {
            if let pause = pausedUntil, pause <= now { pausedUntil = nil }
            guard let held = lease, now >= expires else { return }
            lease = nil
            if held.count > 0 { unused = held }
        }

        /// Takes a permit from the lease in hand, if it has one and no pause holds.
        mutating func take() -> Bool {
            guard pausedUntil == nil, let held = lease, held.count > 0 else { return false }
            lease?.count = held.count - 1
            return true
        }

        /// Gives the permits of `answer` to the leasing caller and then to the queue in order; the
        /// first caller left without one leases next.
        ///
        /// A lease that arrives after its lifetime (`now` is past it) serves the leasing caller
        /// only: the rest go back with the next statement rather than to callers who would each
        /// find theirs expired and drop it, uncounted.
        mutating func grant(_ answer: LeaseAnswer, lifetime: Duration, now: Duration) -> [Wakeup] {
            lease = PermitLease(id: answer.lease.id, count: answer.lease.count - 1)
            expires = answer.sentAt + lifetime
            due = nil
            expire(now: now)
            var wakeups: [Wakeup] = []
            while !waiters.isEmpty, take() {
                wakeups.append((waiters.removeFirst().continuation, .success(.granted(expires: expires))))
            }
            return wakeups + handOff()
        }

        /// Fails the queued callers whose deadline comes before `due`.
        mutating func failWaiters(before due: Duration, now: Duration, key: String) -> [Wakeup] {
            self.due = due
            var wakeups: [Wakeup] = []
            waiters.removeAll { waiter in
                guard let deadline = waiter.deadline, deadline < due else { return false }
                wakeups.append((waiter.continuation, .failure(APIError.permitAfterDeadline(key: key, wait: due - now))))
                return true
            }
            return wakeups
        }

        /// The leasing caller is done: the first queued caller leases next, or nobody leases.
        mutating func handOff() -> [Wakeup] {
            guard !waiters.isEmpty else {
                leasing = false
                due = nil
                return []
            }
            return [(waiters.removeFirst().continuation, .success(.lease))]
        }
    }
}
