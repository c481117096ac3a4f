import Foundation

extension FileCredentialStore {
    /// Runs `body` holding an exclusive `flock` on ``lockURL``, waiting (up to ``lockTimeout``)
    /// while another process holds it.
    ///
    /// `flock` belongs to the open file, not the process: two stores on the same file in one
    /// process exclude each other too, and the system drops the lock of a process that dies.
    ///
    /// - Throws: ``APIError/network(_:)`` when the lock stays taken longer than ``lockTimeout``;
    ///   `CancellationError` when the task is cancelled while waiting; what `body` throws.
    public func withRefreshLock<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
        try? createDirectory()
        let held: FileLock.Held
        do {
            held = try await FileLock(lockURL).acquire(timeout: lockTimeout, timeSource: timeSource)
        } catch FileLock.Failure.unavailable {
            // No lock can be had here (a read-only directory, a file system without locks): the
            // refresh runs unlocked, as it would without this store.
            return try await body()
        } catch FileLock.Failure.timedOut {
            throw APIError.network(
                APIError.Details(
                    message: "Another process kept refreshing the credentials in \(url.path) for over \(lockTimeout).",
                    hint: "Try again; another process using these credentials may be stuck."
                )
            )
        }
        defer { held.release() }
        return try await body()
    }
}
