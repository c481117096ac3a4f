import Foundation
import HTTPCore

/// A clock for tests: time moves only when the test or a sleeper says so.
///
/// In the default ``Mode/autoAdvance`` mode a `sleep(for:)` returns at once and moves the
/// clock forward by the requested duration, so retry backoff or token expiry can be tested
/// without waiting, and the waits are recorded in ``sleeps``. In ``Mode/manual`` mode sleepers
/// stay suspended until ``advance(by:)`` moves time past their deadline or their task is
/// cancelled — for testing what happens *during* a wait.
public final class TestClock: TimeSource {
    /// How sleeping behaves.
    public enum Mode: Sendable {
        /// Sleeps return immediately and advance time.
        case autoAdvance
        /// Sleeps wait for ``TestClock/advance(by:)``.
        case manual
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var elapsed: Duration = .zero
        var sleeps: [Duration] = []
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())
    private let start: Date
    private let mode: Mode

    /// Creates a clock whose wall time starts at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_700_000_000), mode: Mode = .autoAdvance) {
        self.start = start
        self.mode = mode
    }

    /// The wall time: the start plus everything elapsed.
    public func now() -> Date {
        start.addingTimeInterval(state.withLock { $0.elapsed }.seconds)
    }

    /// Everything elapsed since the clock was created.
    public func monotonicNow() -> Duration {
        state.withLock { $0.elapsed }
    }

    /// Every duration a caller asked to sleep, in order.
    public var sleeps: [Duration] {
        state.withLock { $0.sleeps }
    }

    /// How many sleepers are waiting (manual mode).
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// Sleeps as the clock's mode says.
    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        switch mode {
        case .autoAdvance:
            state.withLock {
                $0.sleeps.append(duration)
                $0.elapsed += max(duration, .zero)
            }
        case .manual:
            let id = state.withLock { state -> UInt64 in
                state.nextID += 1
                return state.nextID
            }
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    // Checked under the lock: a cancellation handler that ran before this point
                    // found no sleeper to resume, so this one must not be parked.
                    let outcome = state.withLock { state -> Result<Void, any Error>? in
                        state.sleeps.append(duration)
                        if Task.isCancelled { return .failure(CancellationError()) }
                        if duration <= .zero { return .success(()) }
                        state.sleepers.append(
                            Sleeper(id: id, deadline: state.elapsed + duration, continuation: continuation)
                        )
                        return nil
                    }
                    if let outcome { continuation.resume(with: outcome) }
                }
            } onCancel: {
                let cancelled = state.withLock { state -> Sleeper? in
                    guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.sleepers.remove(at: index)
                }
                cancelled?.continuation.resume(throwing: CancellationError())
            }
        }
    }

    /// Moves time forward, waking every sleeper whose deadline has passed.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.elapsed += duration
            let due = state.sleepers.filter { $0.deadline <= state.elapsed }
            state.sleepers.removeAll { $0.deadline <= state.elapsed }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits until `count` sleepers are suspended, so a test can act at the moment a wait
    /// begins; gives up after `timeLimit` of real time (see ``waitUntil(timeLimit:_:)``).
    ///
    /// - Returns: Whether `count` sleepers were waiting in time.
    @discardableResult
    public func waitForSleepers(_ count: Int = 1, timeLimit: Duration = .seconds(60)) async -> Bool {
        await waitUntil(timeLimit: timeLimit) { sleeperCount >= count }
    }
}
