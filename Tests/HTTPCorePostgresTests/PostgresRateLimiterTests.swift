import Foundation
import HTTPCore
import HTTPCoreTesting
import PostgresTesting
import Testing

@testable import HTTPCorePostgres

/// The limiter against a real server: two pools stand for two processes, on the real clock and
/// a small rate (20 per second) so each test takes a second or two alone. The suite must hold
/// when a loaded machine slows statements to hundreds of milliseconds, so safety (the cap, the
/// pause) is judged by the grant times the database recorded, and throughput by generous floors.
@Suite("Postgres: rate limiter", PostgresTestServer.trait, .timeLimit(.minutes(2)))
struct PostgresRateLimiterTests {
    private static let rate = RequestRate(20, per: .seconds(1))
    /// For tests that need the count to hold still while slow statements run.
    private static let slowRate = RequestRate(20, per: .seconds(10))
    /// A window no test outlasts, however loaded the machine: its permits stay counted.
    private static let glacialRate = RequestRate(20, per: .seconds(600))
    /// Leases live 300 ms (the default would be 50 ms), so fewer of a slow statement's permits
    /// expire before they are spent.
    private static let lifetime = Duration.milliseconds(300)
    private let clock = SystemTimeSource()
    private let log = LeaseLog()

    /// A limiter on `pool` whose lease statements go to ``log`` as limiter `index`.
    private func limiter(
        _ pool: PostgresDatabase,
        _ index: Int,
        batchSize: Int = 4,
        rate: RequestRate = Self.rate
    ) -> PostgresRateLimiter {
        let ledger = PostgresPermitLedger(database: pool, permits: rate.permits, span: Self.span(rate))
        return PostgresRateLimiter(
            limit: rate,
            batchSize: batchSize,
            leaseLifetime: Self.lifetime,
            ledger: RecordingPermitLedger(ledger: ledger, limiter: index, log: log),
            label: pool.description,
            jitter: rate.window / 100
        )
    }

    /// How long the database counts a permit: the window plus the lease lifetime.
    private static func span(_ rate: RequestRate = Self.rate) -> Duration { rate.window + lifetime }

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

    @Test(
        "Two processes with four tasks each: no span of the server's clock grants more than the limit, and both get permits",
        arguments: PostgresTestServer.isolationLevels
    )
    func capAndFairness(isolation: String) async throws {
        try await PostgresTestServer.withDatabases(2, isolation: isolation) { pools in
            try await warmUp(pools)
            // Batches of 5: four turns per span to race for, and few statements for a busy machine.
            let limiters = pools.enumerated().map { limiter($1, $0, batchSize: 5) }
            let key = PostgresTestServer.uniqueKey("cap")
            let acquired = Locked([0, 0])
            let failures = Locked<[String]>([])
            let start = ContinuousClock.now
            // 25 grants need a second span (the first holds 20): alone that is 1.3 s; a machine
            // busy with the whole suite, where a statement can take seconds, gets a minute.
            let wanted = 25
            await withTaskGroup(of: Void.self) { group in
                for (index, limiter) in limiters.enumerated() {
                    for _ in 0..<4 {
                        group.addTask {
                            do {
                                while true {
                                    try await limiter.acquirePermit(for: key, deadline: nil, timeSource: clock)
                                    acquired.withLock { $0[index] += 1 }
                                }
                            } catch is CancellationError {
                            } catch {
                                failures.withLock { $0.append("\(error)") }
                            }
                        }
                    }
                }
                while log.countedGrants(for: key, span: Self.span()).count < wanted,
                    ContinuousClock.now - start < .seconds(60)
                {
                    try? await Task.sleep(for: .milliseconds(20))
                }
                group.cancelAll()
            }
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
            let grants = log.countedGrants(for: key, span: Self.span())
            #expect(grants.count >= wanted, "\(grants.count) permits granted in \(ContinuousClock.now - start)")
            // The database's own record: any 21 permits it counted were granted a span apart.
            for (first, last) in zip(grants, grants.dropFirst(Self.rate.permits)) {
                #expect(last - first >= Self.span().wholeMicroseconds, "21 permits within \(last - first) µs")
            }
            for index in 0..<2 {
                #expect(acquired.withLock { $0[index] } >= 1, "limiter \(index) starved")
            }
        }
    }

    @Test("A pause one process saw holds the other until it ends, on the server's clock")
    func pauseShared() async throws {
        try await PostgresTestServer.withDatabases(2) { pools in
            try await warmUp(pools)
            // A long window, so the only wait is the pause's however slow the statements are.
            let limiters = pools.enumerated().map { limiter($1, $0, rate: Self.slowRate) }
            let key = PostgresTestServer.uniqueKey("pause")
            let timeSource = RecordingTimeSource()
            try await limiters[1].acquirePermit(for: key, deadline: nil, timeSource: timeSource)
            let beforePause = log.count
            // Two seconds: on a loaded machine the next lease statement takes about one to arrive.
            await limiters[0].pause(key, for: .seconds(2), timeSource: clock)
            // limiters[1] holds at most 3 permits leased before the pause: the 4th needs a lease.
            for _ in 0..<4 { try await limiters[1].acquirePermit(for: key, deadline: nil, timeSource: timeSource) }
            let pausedUntil = try await pausedUntil(key, in: pools[1])
            let leases = log.leases(for: key, from: beforePause)
            let granted = leases.filter { $0.answer.lease.count > 0 }
            #expect(!granted.isEmpty)
            #expect(granted.allSatisfy { $0.limiter == 1 && $0.answer.lease.id >= pausedUntil })
            // It slept no longer than the database said the pause had left (plus the jitter).
            // Usually the first lease after the pause is refused; on a machine so busy that the
            // statement arrives after the pause has ended, the checks above are what hold.
            let refused = leases.filter { $0.answer.lease.count == 0 }
            #expect(timeSource.sleeps.count == refused.count)
            for (slept, refusal) in zip(timeSource.sleeps, refused) {
                #expect(slept <= refusal.answer.wait + Self.slowRate.window / 100)
                #expect(refusal.answer.wait <= .seconds(2))
            }
        }
    }

    @Test("Waiting for a spent budget fails before a deadline without sleeping, and ends on cancellation")
    func cancellationAndDeadline() async throws {
        try await PostgresTestServer.withDatabases(2) { pools in
            try await warmUp(pools)
            let key = PostgresTestServer.uniqueKey("wait")
            let started = ContinuousClock.now
            let spender = limiter(pools[0], 0, batchSize: 20, rate: Self.glacialRate)
            try await spender.acquirePermit(for: key, deadline: nil, timeSource: clock)
            #expect(log.leases(for: key).map(\.answer.lease.count) == [20])

            // On a clock that never moves, a limiter that slept instead of failing would hang.
            let frozen = TestClock(mode: .manual)
            let other = limiter(pools[1], 1, rate: Self.glacialRate)
            let error = await expectAPIError(.rateLimit) {
                try await other.acquirePermit(
                    for: key,
                    deadline: frozen.monotonicNow() + .milliseconds(100),
                    timeSource: frozen
                )
            }
            let elapsed = ContinuousClock.now - started
            #expect(frozen.sleeps.isEmpty)
            // The next permit comes a span after the first 20 were granted.
            let span = Self.span(Self.glacialRate)
            let retryAfter = try #require(error?.details.retryAfter)
            #expect(retryAfter <= span && retryAfter >= span - elapsed, "retry after \(retryAfter)")

            let waiting = Task { try await other.acquirePermit(for: key, deadline: nil, timeSource: frozen) }
            #expect(await frozen.waitForSleepers())
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await waiting.value }
        }
    }

    @Test("A lease's unused permits go back once it expires")
    func unusedPermitsReturn() async throws {
        try await PostgresTestServer.withDatabases(2) { pools in
            try await warmUp(pools)
            // A window no test outlasts, so nothing leaves the count however slow the statements are.
            let hoarder = limiter(pools[0], 0, batchSize: 10, rate: Self.glacialRate)
            let other = limiter(pools[1], 1, batchSize: 20, rate: Self.glacialRate)
            let key = PostgresTestServer.uniqueKey("return")
            try await hoarder.acquirePermit(for: key, deadline: nil, timeSource: clock)
            try await Task.sleep(for: Self.lifetime + .milliseconds(10))
            // The next lease gives back the 9 unused and takes 10: 11 counted.
            try await hoarder.acquirePermit(for: key, deadline: nil, timeSource: clock)
            let hoarded = log.leases(for: key)
            #expect(hoarded.map(\.answer.lease.count) == [10, 10])
            #expect(hoarded.last?.returning == PermitLease(id: hoarded[0].answer.lease.id, count: 9))
            try await other.acquirePermit(for: key, deadline: clock.monotonicNow(), timeSource: clock)
            #expect(log.leases(for: key).dropFirst(2).first?.answer.lease.count == 9)
            #expect(log.countedGrants(for: key, span: Self.span(Self.glacialRate)).count == 20)
        }
    }

    @Test("A crashed holder's permits count for one span only")
    func crashedLease() async throws {
        try await PostgresTestServer.withDatabases(2) { pools in
            try await warmUp(pools)
            let hoarder = limiter(pools[0], 0, batchSize: 10)
            let other = limiter(pools[1], 1, batchSize: 20)
            let key = PostgresTestServer.uniqueKey("crash")
            try await hoarder.acquirePermit(for: key, deadline: nil, timeSource: clock)
            let crashedAt = try #require(log.leases(for: key).first?.answer.lease.id)
            await pools[0].shutdown()
            let span = Self.span().wholeMicroseconds

            try await other.acquirePermit(for: key, deadline: nil, timeSource: clock)
            let first = try #require(log.leases(for: key).dropFirst().first?.answer.lease)
            // While the crashed 10 count (a span on the server's clock) only 10 are left.
            #expect(first.count == (first.id - crashedAt < span ? 10 : 20))

            // Spending the rest and one more waits until the crashed lease stops counting.
            let timeSource = RecordingTimeSource()
            let afterFirst = log.count
            for _ in 0..<first.count {
                try await other.acquirePermit(for: key, deadline: nil, timeSource: timeSource)
            }
            let leases = log.leases(for: key, from: afterFirst)
            let refused = leases.filter { $0.answer.lease.count == 0 }
            #expect(timeSource.sleeps.count == refused.count)
            for (slept, refusal) in zip(timeSource.sleeps, refused) {
                #expect(slept <= refusal.answer.wait + Self.rate.window / 100)
            }
            // More than 10 of its own beside the crashed 10: the cap below puts them a span later.
            let grants = log.countedGrants(for: key, span: Self.span())
            #expect(grants.count { $0 != crashedAt } > first.count)
            for (first, last) in zip(grants, grants.dropFirst(Self.rate.permits)) {
                #expect(last - first >= span, "21 permits within \(last - first) µs")
            }
        }
    }

    /// When the pause on `key` ends, in microseconds since 1970 on the server's clock.
    private func pausedUntil(_ key: String, in database: PostgresDatabase) async throws -> Int64 {
        try await database.withConnection("read the pause") { [schema = database.schema] connection in
            let rows = try await connection.query(
                """
                SELECT floor(extract(epoch FROM paused_until) * 1000000)::bigint
                FROM \(unescaped: schema).rate_limits WHERE key = \(key)
                """,
                logger: PostgresDatabase.quiet
            )
            for try await value in rows.decode(Int64.self) { return value }
            throw APIError.apiError(APIError.Details(message: "No rate_limits row for the key."))
        }
    }
}
