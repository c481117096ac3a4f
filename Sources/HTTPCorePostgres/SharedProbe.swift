import HTTPCore

/// One probe at a time for every operation that asks: the first caller runs it, in its own task
/// so that cancelling that caller cancels it, and the callers who asked meanwhile get its outcome.
///
/// Operations waiting on a pool that has never connected each want to ask the server why; one
/// connection asks for all of them, so a burst at start-up cannot open a connection per waiter.
final class SharedProbe<Outcome: Sendable>: Sendable {
    private struct State {
        var running = false
        var nextID: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Outcome?, Never>] = [:]
    }

    private let state = Locked(State())

    /// How many callers are waiting for the probe running, for tests that must know all have.
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// The outcome of the probe running, or of `probe` run now when none is; `nil` for a caller
    /// cancelled while it waited, and for the others when the caller running it was cancelled.
    func outcome(_ probe: () async -> Outcome?) async -> Outcome? {
        let leads = state.withLock { state in
            defer { state.running = true }
            return !state.running
        }
        guard leads else { return await awaitRunningProbe() }
        let outcome = Task.isCancelled ? nil : await probe()
        let waiters = state.withLock { state in
            defer {
                state.running = false
                state.waiters = [:]
            }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
        return outcome
    }

    private func awaitRunningProbe() async -> Outcome? {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome?, Never>) in
                // Checked under the lock: the probe may have ended, or the caller been cancelled,
                // before this waiter was recorded.
                let parked = state.withLock { state in
                    guard state.running, !Task.isCancelled else { return false }
                    state.waiters[id] = continuation
                    return true
                }
                if !parked { continuation.resume(returning: nil) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: nil)
        }
    }
}
