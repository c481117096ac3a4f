import HTTPCore
import HTTPCoreTesting

@testable import HTTPCorePostgres

/// The lease statement's rule in memory, on a test clock, so the limiter's local part is
/// tested without a database (the SQL itself is tested in PostgresRateLimiterTests).
final class MemoryPermitLedger: PermitLedger {
    struct State {
        var grants: [String: [Int64]] = [:]
        var pausedUntil: [String: Int64] = [:]
        var leases = 0
        var inFlight = 0
        var mostInFlight = 0
        var returned = 0
        var failsPauses = false
        /// How many of the next lease statements commit and then lose their answer.
        var losesAnswers = 0
        /// How long each lease waits before its statement is sent (for a connection, or for the
        /// schema), on the test clock.
        var queueLatency: Duration = .zero
        /// How long each lease statement takes once sent, on the test clock.
        var latency: Duration = .zero
    }

    let clock: TestClock
    let permits: Int
    let span: Duration
    let state = Locked(State())

    init(clock: TestClock, permits: Int, span: Duration) {
        self.clock = clock
        self.permits = permits
        self.span = span
    }

    func lease(_ key: String, want: Int, returning: PermitLease?, clock: any TimeSource) async throws -> LeaseAnswer {
        state.withLock {
            $0.inFlight += 1
            $0.mostInFlight = max($0.mostInFlight, $0.inFlight)
        }
        // Another caller may run meanwhile, as it would during a round trip.
        await Task.yield()
        let queueLatency = state.withLock { $0.queueLatency }
        if queueLatency > .zero { try await self.clock.sleep(for: queueLatency) }
        let sentAt = clock.monotonicNow()
        let latency = state.withLock { $0.latency }
        if latency > .zero { try await clock.sleep(for: latency) }
        return try state.withLock { state in
            state.inFlight -= 1
            state.leases += 1
            let now = clock.monotonicNow().wholeMicroseconds
            var held = state.grants[key, default: []]
            if let returning, let first = held.firstIndex(of: returning.id) {
                let count = min(returning.count, held.filter { $0 == returning.id }.count)
                held.removeSubrange(first..<(first + count))
                state.returned += count
            }
            held = held.filter { $0 > now - span.wholeMicroseconds }.sorted()
            defer { state.grants[key] = held }
            if let paused = state.pausedUntil[key], paused > now {
                return LeaseAnswer(
                    lease: PermitLease(id: now, count: 0),
                    wait: .microseconds(paused - now),
                    sentAt: sentAt
                )
            }
            let granted = max(0, min(want, permits - held.count))
            held += Array(repeating: now, count: granted)
            if state.losesAnswers > 0 {
                state.losesAnswers -= 1
                throw APIError.network(APIError.Details(message: "The connection closed after the commit."))
            }
            let wait = granted > 0 ? 0 : held[held.count - permits] + span.wholeMicroseconds - now
            return LeaseAnswer(lease: PermitLease(id: now, count: granted), wait: .microseconds(wait), sentAt: sentAt)
        }
    }

    func pause(_ key: String, for duration: Duration) async throws {
        try state.withLock { state in
            if state.failsPauses { throw APIError.network(APIError.Details(message: "unreachable")) }
            let until = (clock.monotonicNow() + duration).wholeMicroseconds
            state.pausedUntil[key] = max(state.pausedUntil[key] ?? until, until)
        }
    }
}
