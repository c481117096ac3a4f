import HTTPCore
import HTTPCoreTesting
import Testing

@Suite("TestClock")
struct TestClockTests {
    @Test("A manual sleep cancelled at any moment of its start ends with CancellationError")
    func cancelledWhileStarting() async {
        // A timeout races a sleep against work that ends at once, so the cancel lands anywhere in
        // the sleep's start; before the fix, one landing between its check and its registration
        // left the sleeper parked for ever.
        for _ in 0..<2_000 {
            let clock = TestClock(mode: .manual)
            let ended = Locked(false)
            let sleeper = Task {
                defer { ended.withLock { $0 = true } }
                try await clock.sleep(for: .seconds(30))
            }
            await Task.yield()
            sleeper.cancel()
            let finished = await waitUntil(timeLimit: .seconds(10)) { ended.withLock { $0 } }
            #expect(finished, "a cancelled sleep stayed suspended")
            guard finished else { return }
            await #expect(throws: CancellationError.self) { try await sleeper.value }
            #expect(clock.sleeperCount == 0)
        }
    }

    @Test("A manual sleep wakes when time passes its deadline, not before")
    func advance() async throws {
        let clock = TestClock(mode: .manual)
        let sleeper = Task { try await clock.sleep(for: .seconds(10)) }
        #expect(await clock.waitForSleepers(1, timeLimit: .seconds(10)))
        clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.sleeperCount == 0)
        #expect(clock.sleeps == [.seconds(10)])
        #expect(clock.monotonicNow() == .seconds(10))
    }
}
