import HTTPCore
import HTTPCoreTesting
import Testing

@testable import HTTPCorePostgres

/// The limiter's part in the process (batches, the queue, deadlines, pauses) on a test clock
/// and the ledger's rule in memory: no database, no real waiting.
@Suite("PostgreSQL rate limiter, in memory")
struct PostgresRateLimiterUnitTests {
    /// A limiter of 4 permits on a manual clock with its budget spent, and the leasing caller
    /// asleep until it refills (10.5 s).
    private func leaderAwaitingRefill() async throws -> (
        TestClock, PostgresRateLimiter, MemoryPermitLedger, Task<Void, any Error>
    ) {
        let clock = TestClock(mode: .manual)
        let (limiter, ledger) = limiter(clock, permits: 4)
        for _ in 0..<4 { try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock) }
        let leader = Task { try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock) }
        #expect(await clock.waitForSleepers(1))
        return (clock, limiter, ledger, leader)
    }

    private func limiter(
        _ clock: TestClock,
        permits: Int = 10,
        batchSize: Int = 4,
        lifetime: Duration = .milliseconds(500)
    ) -> (PostgresRateLimiter, MemoryPermitLedger) {
        let window = Duration.seconds(10)
        let ledger = MemoryPermitLedger(clock: clock, permits: permits, span: window + lifetime)
        let limiter = PostgresRateLimiter(
            limit: RequestRate(permits, per: window),
            batchSize: batchSize,
            leaseLifetime: lifetime,
            ledger: ledger,
            label: "memory"
        )
        return (limiter, ledger)
    }

    @Test("Permits come in leases of the batch size: 8 permits cost 2 statements")
    func batches() async throws {
        let clock = TestClock()
        let (limiter, ledger) = limiter(clock)
        for _ in 0..<8 { try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock) }
        #expect(ledger.state.withLock { $0.leases } == 2)
        #expect(clock.sleeps.isEmpty)
    }

    @Test("The budget holds for the window plus the lease lifetime: the 11th permit waits 10.5 s")
    func cap() async throws {
        let clock = TestClock()
        let (limiter, _) = limiter(clock)
        var times: [Duration] = []
        for _ in 0..<11 {
            try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock)
            times.append(clock.monotonicNow())
        }
        #expect(times.prefix(10).allSatisfy { $0 == .zero })
        #expect(times.last == .milliseconds(10_500))
    }

    @Test("Concurrent callers: one statement at a time per key, and every caller gets a permit")
    func oneLeaderAtATime() async throws {
        let clock = TestClock()
        let (limiter, ledger) = limiter(clock, permits: 40)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<24 {
                group.addTask { try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock) }
            }
            try await group.waitForAll()
        }
        #expect(ledger.state.withLock { $0.mostInFlight } == 1)
        #expect(ledger.state.withLock { $0.leases } == 6)
    }

    @Test("A lease's unused permits go back with the next lease once its lifetime is over")
    func unusedReturned() async throws {
        let clock = TestClock()
        let (limiter, ledger) = limiter(clock)
        try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock)
        try await clock.sleep(for: .milliseconds(500))
        try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock)
        #expect(ledger.state.withLock { $0.returned } == 3)
        // The database counts 5 (3 of them in hand): 8 more come at once, the 9th must wait.
        for _ in 0..<8 { try await limiter.acquirePermit(for: "k", deadline: .zero, timeSource: clock) }
        let error = await expectAPIError(.rateLimit) {
            try await limiter.acquirePermit(for: "k", deadline: clock.monotonicNow(), timeSource: clock)
        }
        #expect(error?.details.retryAfter == .milliseconds(10_000))
    }

    @Test("Unused permits go back at most once, even when the statement that gave them back lost its answer")
    func lostAnswer() async throws {
        let clock = TestClock()
        let (limiter, ledger) = limiter(clock)
        try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock)
        try await clock.sleep(for: .milliseconds(500))
        ledger.state.withLock { $0.losesAnswers = 1 }
        _ = await expectAPIError(.network) {
            try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock)
        }
        var acquired = 0
        while (try? await limiter.acquirePermit(for: "k", deadline: clock.monotonicNow(), timeSource: clock)) != nil {
            acquired += 1
        }
        #expect(ledger.state.withLock { $0.returned } == 3)
        // Counted: the one permit used and the lost lease's 4, so 5 of the 10 are left.
        #expect(acquired == 5)
    }

    @Test("Leases slower than their lifetime arrive expired: their unused permits still go back, none is lost")
    func slowLeases() async throws {
        let clock = TestClock()
        let (limiter, ledger) = limiter(clock, permits: 20, lifetime: .milliseconds(50))
        ledger.state.withLock { $0.latency = .milliseconds(60) }
        var count = 0
        while (try? await limiter.acquirePermit(for: "k", deadline: clock.monotonicNow(), timeSource: clock)) != nil {
            count += 1
        }
        #expect(count == 20)
        // Each lease's unused permits went back: 3 of each of the first 17, then 2 and 1 as the
        // budget ran out.
        let returned = ledger.state.withLock { $0.returned }
        #expect(returned == 54)
    }

    /// Eight callers at once asking a limiter of 20 permits, batches of 4 and a 50 ms lifetime,
    /// whose ledger `slows` as the test needs; returns the clock and the ledger when all have one.
    private func eightAtOnce(
        slowing slows: (inout MemoryPermitLedger.State) -> Void
    ) async throws -> (TestClock, MemoryPermitLedger) {
        let clock = TestClock()
        let (limiter, ledger) = limiter(clock, permits: 20, lifetime: .milliseconds(50))
        ledger.state.withLock(slows)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock) }
            }
            try await group.waitForAll()
        }
        return (clock, ledger)
    }

    @Test("Time waiting for a connection does not age a lease: a queue behind a slow pool gets every permit")
    func slowPool() async throws {
        let (clock, ledger) = try await eightAtOnce { $0.queueLatency = .milliseconds(60) }
        #expect(clock.monotonicNow() < .seconds(1))
        #expect(ledger.state.withLock { $0.leases } == 2)
        #expect(ledger.state.withLock { $0.returned } == 0)
    }

    @Test("A lease that arrives expired serves its leader; the rest go back rather than to the queue, to be lost")
    func expiredLeaseWithQueue() async throws {
        let (clock, ledger) = try await eightAtOnce { $0.latency = .milliseconds(60) }
        #expect(clock.monotonicNow() < .seconds(1))
        // Each of the 8 leases served one caller and gave its other 3 back with the next.
        #expect(ledger.state.withLock { $0.returned } == 21)
    }

    @Test("A permit due after the deadline fails at once with rate_limit, for the leader and the queue")
    func deadline() async throws {
        let (clock, limiter, _, leader) = try await leaderAwaitingRefill()
        let error = await expectAPIError(.rateLimit) {
            try await limiter.acquirePermit(for: "k", deadline: .seconds(5), timeSource: clock)
        }
        #expect(error?.details.retryAfter == .milliseconds(10_500))
        clock.advance(by: .milliseconds(10_500))
        try await leader.value
    }

    @Test(
        "A queued caller's deadline holds while a lease statement is out: a stalled database cannot keep it",
        .timeLimit(.minutes(1))
    )
    func deadlineDuringLease() async throws {
        let clock = TestClock(mode: .manual)
        let (limiter, ledger) = limiter(clock, permits: 4)
        ledger.state.withLock { $0.latency = .seconds(5) }
        let leader = Task { try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock) }
        #expect(await clock.waitForSleepers(1))
        let queued = Task { try await limiter.acquirePermit(for: "k", deadline: .seconds(1), timeSource: clock) }
        #expect(await clock.waitForSleepers(2))
        clock.advance(by: .seconds(1))
        let error = await expectAPIError(.rateLimit) { try await queued.value }
        #expect(error?.message.contains("It was not sent.") == true)
        clock.advance(by: .seconds(4))
        try await leader.value
    }

    @Test(
        "A caller queued while the leader waits keeps its deadline through the leader's next, stalled statement",
        .timeLimit(.minutes(1))
    )
    func deadlineDuringLaterLease() async throws {
        let (clock, limiter, ledger, leader) = try await leaderAwaitingRefill()
        // Due at 10.5 s, before this caller's deadline at 12 s: it queues.
        let queued = Task { try await limiter.acquirePermit(for: "k", deadline: .seconds(12), timeSource: clock) }
        #expect(await clock.waitForSleepers(2))
        ledger.state.withLock { $0.latency = .seconds(5) }
        clock.advance(by: .milliseconds(10_500))
        #expect(await clock.waitForSleepers(2))
        clock.advance(by: .milliseconds(1_500))
        await expectAPIError(.rateLimit) { try await queued.value }
        clock.advance(by: .milliseconds(3_500))
        try await leader.value
    }

    @Test("A queued caller served before its deadline leaves no deadline timer sleeping")
    func servedCallerStopsItsTimer() async throws {
        let (clock, limiter, _, leader) = try await leaderAwaitingRefill()
        let queued = Task { try await limiter.acquirePermit(for: "k", deadline: .seconds(60), timeSource: clock) }
        // The leader's sleep and the queued caller's deadline timer.
        #expect(await clock.waitForSleepers(2))
        clock.advance(by: .milliseconds(10_500))
        try await leader.value
        try await queued.value
        #expect(await waitUntil(timeLimit: .seconds(5)) { clock.sleeperCount == 0 })
    }

    @Test("A cancelled caller leaves the queue, and a cancelled leader hands the lease on")
    func cancellation() async throws {
        let (clock, limiter, _, leader) = try await leaderAwaitingRefill()
        let queued = Task { try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock) }
        let next = Task { try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock) }
        queued.cancel()
        await #expect(throws: CancellationError.self) { try await queued.value }
        leader.cancel()
        await #expect(throws: CancellationError.self) { try await leader.value }
        // `next` leads now and sleeps until the budget refills.
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(10_500))
        try await next.value
    }

    @Test("A pause holds every caller of the key, in this process even when the database misses it")
    func pause() async throws {
        let clock = TestClock()
        let (limiter, ledger) = limiter(clock)
        try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock)
        ledger.state.withLock { $0.failsPauses = true }
        await limiter.pause("k", for: .seconds(30), timeSource: clock)
        try await limiter.acquirePermit(for: "other", deadline: nil, timeSource: clock)
        #expect(clock.monotonicNow() == .zero)
        try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock)
        #expect(clock.monotonicNow() == .seconds(30))
        // The lease held at the pause went back with the next lease.
        #expect(ledger.state.withLock { $0.returned } == 3)
    }
}
