import HTTPCore

/// Runs work that must keep making progress, and ends it once it goes quiet for longer than its
/// timeout: the work calls ``touch()`` whenever something arrives.
final class IdleWatchdog: Sendable {
    private let timeout: Duration
    private let lastActivity = Locked(ContinuousClock.now)

    private init(timeout: Duration) {
        self.timeout = timeout
    }

    /// Notes that something arrived: the quiet period starts again.
    func touch() {
        lastActivity.withLock { $0 = .now }
    }

    /// Runs `work` under a watchdog and returns its result.
    ///
    /// - Throws: `timeout()` when `timeout` passes without a ``touch()``; the work is then
    ///   cancelled. Otherwise whatever `work` throws.
    static func run<Result: Sendable>(
        timeout: Duration,
        orThrow timedOut: @escaping @Sendable () -> any Error,
        _ work: @escaping @Sendable (IdleWatchdog) async throws -> Result
    ) async throws -> Result {
        let watchdog = IdleWatchdog(timeout: timeout)
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask { try await work(watchdog) }
            group.addTask {
                try await watchdog.waitForSilence()
                return nil
            }
            defer { group.cancelAll() }
            // The work's result, or nil when the watchdog finished first.
            guard let result = try await group.next() ?? nil else { throw timedOut() }
            return result
        }
    }

    /// Returns once a whole timeout has passed since the last ``touch()``.
    private func waitForSilence() async throws {
        let clock = ContinuousClock()
        while true {
            let due = lastActivity.withLock { $0 } + timeout
            guard clock.now < due else { return }
            try await clock.sleep(until: due)
        }
    }
}
