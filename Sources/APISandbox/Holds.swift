import NIOConcurrencyHelpers

/// Named latches that keep answers back until a test releases them.
///
/// A test that shows a client gave up before the server answered (a timeout, a cancellation, a
/// body refused early) could make the server sleep and check that the client ended sooner; on a
/// loaded machine the client itself can stall past any such delay. A hold has no deadline to
/// race: the server answers only once the test has seen the client give up and says so. A release
/// that comes before anyone waits is kept, and stopping the sandbox releases every hold, so a
/// held request never delays shutdown.
@available(macOS 14, iOS 17, tvOS 17, *)
final class Holds: Sendable {
    private struct State {
        var released: Set<String> = []
        var waiters: [String: [Int: CheckedContinuation<Void, Never>]] = [:]
        var nextWaiter = 0
        /// Tests waiting for requests to park on a hold: the hold, how many requests, and the test.
        var watchers: [Int: (name: String, count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
        /// Set on stop: every hold, present and future, counts as released.
        var isClosed = false

        /// Removes and returns the watchers whose hold now has enough requests waiting.
        mutating func satisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
            let satisfied = watchers.filter { $0.value.count <= waiters[$0.value.name]?.count ?? 0 }
            for id in satisfied.keys { watchers[id] = nil }
            return satisfied.values.map(\.continuation)
        }
    }

    private let state = NIOLockedValueBox(State())

    /// Releases `name`: current waiters go on, and later waits return at once.
    func release(_ name: String) {
        let waiters = state.withLockedValue { state in
            state.released.insert(name)
            return state.waiters.removeValue(forKey: name).map { Array($0.values) } ?? []
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Releases every hold for good; the sandbox is stopping.
    func close() {
        let waiters = state.withLockedValue { state in
            state.isClosed = true
            defer {
                state.waiters = [:]
                state.watchers = [:]
            }
            return state.waiters.values.flatMap(\.values) + state.watchers.values.map(\.continuation)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once at least `count` requests wait on `name`, or the sandbox has stopped.
    /// Cancellation ends the wait early and throws `CancellationError`.
    func waitUntilWaiting(on name: String, count: Int) async throws {
        let id = state.withLockedValue { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let parked = state.withLockedValue { state in
                    guard !state.isClosed, !Task.isCancelled, count > state.waiters[name]?.count ?? 0 else {
                        return false
                    }
                    state.watchers[id] = (name, count, continuation)
                    return true
                }
                if !parked { continuation.resume() }
            }
        } onCancel: {
            state.withLockedValue { $0.watchers.removeValue(forKey: id) }?.continuation.resume()
        }
        try Task.checkCancellation()
    }

    /// Forgets which holds were released, so a name can hold again. Requests already waiting
    /// keep waiting.
    func forgetReleases() {
        state.withLockedValue { $0.released = [] }
    }

    /// Waits until `name` is released or `limit` has passed, whichever is first. Cancellation
    /// ends the wait early and throws `CancellationError`.
    func wait(for name: String, atMost limit: Duration) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait(for: name) }
            group.addTask { try await Task.sleep(for: limit) }
            try await group.next()
            group.cancelAll()
        }
        try Task.checkCancellation()
    }

    /// Waits until `name` is released; returns at once when the task is cancelled.
    private func wait(for name: String) async {
        let id = state.withLockedValue { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Checked under the lock: a cancellation handler that ran before this point found
                // nothing to resume, so this must not park the continuation.
                let (parked, arrivals) = state.withLockedValue { state in
                    guard !state.isClosed, !state.released.contains(name), !Task.isCancelled else {
                        return (false, [CheckedContinuation<Void, Never>]())
                    }
                    state.waiters[name, default: [:]][id] = continuation
                    return (true, state.satisfiedWatchers())
                }
                if !parked { continuation.resume() }
                for arrival in arrivals { arrival.resume() }
            }
        } onCancel: {
            let waiter = state.withLockedValue { state in
                let waiter = state.waiters[name]?.removeValue(forKey: id)
                if state.waiters[name]?.isEmpty == true { state.waiters[name] = nil }
                return waiter
            }
            waiter?.resume()
        }
    }
}
