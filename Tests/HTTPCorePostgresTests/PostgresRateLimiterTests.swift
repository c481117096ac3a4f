import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@testable import HTTPCorePostgres

/// The limiter against a real server: two pools stand for two processes, on the real clock and
/// a small rate (20 per second) so each test takes a second or two. Leases live 300 ms (the
/// default would be 50 ms), so statements slowed by a busy machine do not outlive them.
@Suite("Postgres: rate limiter", PostgresTestServer.trait, .timeLimit(.minutes(1)))
struct PostgresRateLimiterTests {
    private static let rate = RequestRate(20, per: .seconds(1))
    private static let lifetime = Duration.milliseconds(300)
    private let clock = SystemTimeSource()

    private func limiters(_ pools: [PostgresDatabase], batchSize: Int = 4) -> [PostgresRateLimiter] {
        pools.map {
            PostgresRateLimiter(database: $0, limit: Self.rate, batchSize: batchSize, leaseLifetime: Self.lifetime)
        }
    }

    /// Opens each pool's first connection, so the tests time statements, not connecting.
    private func warmUp(_ pools: [PostgresDatabase]) async throws {
        for pool in pools { try await pool.migrate() }
    }

    /// How many permits `limiter` hands out before one would need waiting for.
    private func permitsAtOnce(_ limiter: PostgresRateLimiter, _ key: String) async throws -> Int {
        var count = 0
        while true {
            do {
                try await limiter.acquirePermit(for: key, deadline: clock.monotonicNow(), timeSource: clock)
                count += 1
            } catch let error as APIError where error.code == .rateLimit {
                return count
            }
        }
    }

    @Test("Two processes with four tasks each: no second sees more than the limit, and both get their share")
    func capAndFairness() async throws {
        try await PostgresTestServer.withDatabases(2) { pools in
            try await warmUp(pools)
            // Batches of 2: twice the turns to take, so a fair share shows within three windows.
            let limiters = limiters(pools, batchSize: 2)
            let key = PostgresTestServer.uniqueKey("cap")
            let start = ContinuousClock.now
            let grants = Locked<[(limiter: Int, at: Duration)]>([])
            await withTaskGroup(of: Void.self) { group in
                for (index, limiter) in limiters.enumerated() {
                    for _ in 0..<4 {
                        group.addTask {
                            while ContinuousClock.now - start < .milliseconds(2200) {
                                do {
                                    try await limiter.acquirePermit(for: key, deadline: nil, timeSource: clock)
                                } catch {
                                    return
                                }
                                let at = ContinuousClock.now - start
                                grants.withLock { $0.append((index, at)) }
                            }
                        }
                    }
                }
                try? await Task.sleep(for: .milliseconds(2300))
                group.cancelAll()
            }
            let all = grants.withLock { $0 }.sorted { $0.at < $1.at }
            // Permits are spaced a window apart, less a margin for noting the time after each on
            // a busy machine (a task resumed with its permit may run a little later).
            for (first, last) in zip(all, all.dropFirst(Self.rate.permits)) {
                #expect(last.at - first.at >= .milliseconds(900), "21 permits within \(last.at - first.at)")
            }
            // Two windows start within 2.2 s (at 0 and 1.3 s): at least the first is spent.
            #expect(all.count >= 20)
            #expect(all.count <= 40)
            for index in 0..<2 {
                #expect(all.filter { $0.limiter == index }.count >= all.count / 5, "limiter \(index) starved")
            }
        }
    }

    @Test("A pause one process saw holds the other until it ends")
    func pauseShared() async throws {
        try await PostgresTestServer.withDatabases(2) { pools in
            try await warmUp(pools)
            let limiters = limiters(pools)
            let key = PostgresTestServer.uniqueKey("pause")
            try await limiters[1].acquirePermit(for: key, deadline: nil, timeSource: clock)
            await limiters[0].pause(key, for: .milliseconds(400), timeSource: clock)
            // limiters[1] may still hold 3 permits leased before the pause (unless their lifetime
            // is over): the next after those waits for the pause to end.
            let start = ContinuousClock.now
            for _ in 0..<4 { try await limiters[1].acquirePermit(for: key, deadline: nil, timeSource: clock) }
            let waited = ContinuousClock.now - start
            #expect(waited >= .milliseconds(350))
            #expect(waited < .seconds(2))
        }
    }

    @Test("Waiting for a spent budget ends at once on cancellation, and fails at once before a deadline")
    func cancellationAndDeadline() async throws {
        try await PostgresTestServer.withDatabases(2) { pools in
            try await warmUp(pools)
            let limiters = limiters(pools)
            let key = PostgresTestServer.uniqueKey("wait")
            #expect(try await permitsAtOnce(limiters[0], key) == 20)

            let start = ContinuousClock.now
            let deadline = clock.monotonicNow() + .milliseconds(100)
            let error = await expectAPIError(.rateLimit) {
                try await limiters[1].acquirePermit(for: key, deadline: deadline, timeSource: clock)
            }
            #expect(ContinuousClock.now - start < .milliseconds(500))
            let retryAfter = try #require(error?.details.retryAfter)
            #expect(retryAfter > .milliseconds(500) && retryAfter <= .milliseconds(1300))

            let waiting = Task { try await limiters[1].acquirePermit(for: key, deadline: nil, timeSource: clock) }
            try await Task.sleep(for: .milliseconds(100))
            let cancelledAt = ContinuousClock.now
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await waiting.value }
            #expect(ContinuousClock.now - cancelledAt < .milliseconds(300))
        }
    }

    @Test("A lease's unused permits go back once it expires; a crashed holder's count one window only")
    func expiredLeases() async throws {
        try await PostgresTestServer.withDatabases(2) { pools in
            try await warmUp(pools)
            let hoarder = PostgresRateLimiter(
                database: pools[0],
                limit: Self.rate,
                batchSize: 10,
                leaseLifetime: Self.lifetime
            )
            let other = limiters([pools[1]], batchSize: 20)[0]

            let returning = PostgresTestServer.uniqueKey("return")
            try await hoarder.acquirePermit(for: returning, deadline: nil, timeSource: clock)
            try await Task.sleep(for: Self.lifetime + .milliseconds(10))
            // The next lease gives back the 9 unused and takes 10: 11 counted.
            try await hoarder.acquirePermit(for: returning, deadline: nil, timeSource: clock)
            #expect(try await permitsAtOnce(other, returning) == 9)

            let crashed = PostgresTestServer.uniqueKey("crash")
            try await hoarder.acquirePermit(for: crashed, deadline: nil, timeSource: clock)
            await pools[0].shutdown()
            #expect(try await permitsAtOnce(other, crashed) == 10)
            let start = ContinuousClock.now
            try await other.acquirePermit(for: crashed, deadline: nil, timeSource: clock)
            #expect(ContinuousClock.now - start < .milliseconds(1500))
            #expect(try await permitsAtOnce(other, crashed) == 19)
        }
    }
}
