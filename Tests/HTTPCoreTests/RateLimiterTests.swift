import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

/// The in-process limiter on its own, on a test clock.
@Suite("Rate limiter")
struct RateLimiterTests {
    /// Takes a permit for `key` in a new task and records `name` in `log` once it has one.
    private func waiter(
        _ name: String,
        _ limiter: TokenBucketRateLimiter,
        clock: TestClock,
        log: EventLog,
        key: String = "k"
    ) -> Task<Void, any Error> {
        Task {
            try await limiter.acquirePermit(for: key, deadline: nil, timeSource: clock)
            log.append(name)
        }
    }

    /// Waits until `log` holds `count` entries (the granted waiters have run).
    private func waitForLog(_ log: EventLog, count: Int) async {
        #expect(await waitUntil { log.entries.count >= count })
    }

    @Test("3 per 10 s: three permits at once, the fourth one window after the first")
    func cap() async throws {
        let clock = TestClock()
        let limiter = TokenBucketRateLimiter(RequestRate(3, per: .seconds(10)))
        var times: [Duration] = []
        for _ in 0..<7 {
            try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock)
            times.append(clock.monotonicNow())
        }
        #expect(times == [.zero, .zero, .zero, .seconds(10), .seconds(10), .seconds(10), .seconds(20)])
    }

    @Test("Each token comes back one window after it was spent: no window ever sees more than the limit")
    func slidingWindow() async throws {
        let clock = TestClock()
        let limiter = TokenBucketRateLimiter(RequestRate(2, per: .seconds(10)))
        try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock)
        try await clock.sleep(for: .seconds(6))
        try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock)
        // The first token is back at 10 s, the second at 16 s.
        try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock)
        #expect(clock.monotonicNow() == .seconds(10))
        try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock)
        #expect(clock.monotonicNow() == .seconds(16))
    }

    @Test("Keys have budgets of their own")
    func keys() async throws {
        let clock = TestClock()
        let limiter = TokenBucketRateLimiter(RequestRate(1, per: .seconds(10)))
        try await limiter.acquirePermit(for: "a", deadline: nil, timeSource: clock)
        try await limiter.acquirePermit(for: "b", deadline: nil, timeSource: clock)
        #expect(clock.sleeps.isEmpty)
    }

    @Test("Waiters are served in the order they came; one arriving as a token returns queues behind them")
    func fairness() async throws {
        let clock = TestClock(mode: .manual)
        let limiter = TokenBucketRateLimiter(RequestRate(1, per: .seconds(10)))
        let log = EventLog()
        try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock)
        var tasks: [Task<Void, any Error>] = []
        for (index, name) in ["a", "b", "c"].enumerated() {
            tasks.append(waiter(name, limiter, clock: clock, log: log))
            await clock.waitForSleepers(index + 1)
        }
        clock.advance(by: .seconds(10))
        // Arrives as a's token comes back, maybe before a has woken: it still queues last.
        tasks.append(waiter("late", limiter, clock: clock, log: log))
        await waitForLog(log, count: 1)
        for count in 2...4 {
            await clock.waitForSleepers(4 - count + 1)
            #expect(log.entries.count == count - 1)
            clock.advance(by: .seconds(10))
            await waitForLog(log, count: count)
        }
        for task in tasks { try await task.value }
        #expect(log.entries == ["a", "b", "c", "late"])
    }

    @Test("A pause holds every waiter of the key until it ends, and never shortens")
    func pause() async throws {
        let clock = TestClock()
        let limiter = TokenBucketRateLimiter(RequestRate(100, per: .seconds(10)))
        await limiter.pause("k", for: .seconds(30), timeSource: clock)
        await limiter.pause("k", for: .seconds(5), timeSource: clock)
        try await limiter.acquirePermit(for: "other", deadline: nil, timeSource: clock)
        #expect(clock.monotonicNow() == .zero)
        try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock)
        #expect(clock.monotonicNow() == .seconds(30))
        try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock)
        #expect(clock.monotonicNow() == .seconds(30))
    }

    @Test("A cancelled waiter takes no token and leaves the queue: the next one moves up")
    func cancellation() async throws {
        let clock = TestClock(mode: .manual)
        let limiter = TokenBucketRateLimiter(RequestRate(1, per: .seconds(10)))
        let log = EventLog()
        try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock)
        let cancelled = waiter("cancelled", limiter, clock: clock, log: log)
        await clock.waitForSleepers(1)
        let next = waiter("next", limiter, clock: clock, log: log)
        await clock.waitForSleepers(2)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        // "next" was due at 20 s behind the cancelled waiter; when its wait ends it is first.
        clock.advance(by: .seconds(20))
        try await next.value
        #expect(log.entries == ["next"])
        let third = waiter("third", limiter, clock: clock, log: log)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        try await third.value
        #expect(log.entries == ["next", "third"])
    }

    @Test("A token due after the deadline fails at once with rate_limit, saying when it would come")
    func deadline() async throws {
        let clock = TestClock()
        let limiter = TokenBucketRateLimiter(RequestRate(1, per: .seconds(10)))
        try await limiter.acquirePermit(for: "k", deadline: nil, timeSource: clock)
        let error = await expectAPIError(.rateLimit) {
            try await limiter.acquirePermit(for: "k", deadline: .seconds(5), timeSource: clock)
        }
        #expect(error?.details.retryAfter == .seconds(10))
        #expect(clock.sleeps.isEmpty)
        // The failed waiter left no trace: the next one is due when the token is back.
        try await limiter.acquirePermit(for: "k", deadline: .seconds(10), timeSource: clock)
        #expect(clock.monotonicNow() == .seconds(10))
    }
}
