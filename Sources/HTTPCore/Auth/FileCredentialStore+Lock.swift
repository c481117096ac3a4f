import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
        guard let lock = try await acquireLock() else { return try await body() }
        defer { lock.release() }
        return try await body()
    }

    /// The held lock, or `nil` when the lock file cannot be opened or locked at all (then the
    /// refresh runs unlocked, as it would without this store).
    private func acquireLock() async throws -> HeldFileLock? {
        try? createDirectory()
        let descriptor = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        let started = timeSource.monotonicNow()
        var pause = Duration.milliseconds(5)
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return HeldFileLock(descriptor: descriptor) }
            let reason = errno
            if reason == EINTR { continue }
            guard reason == EWOULDBLOCK else {
                close(descriptor)
                return nil
            }
            guard timeSource.monotonicNow() - started < lockTimeout else {
                close(descriptor)
                throw APIError.network(
                    APIError.Details(
                        message:
                            "Another process kept refreshing the credentials in \(url.path) for over \(lockTimeout).",
                        hint: "Try again; another process using these credentials may be stuck."
                    )
                )
            }
            do {
                try await timeSource.sleep(for: pause)
            } catch {
                close(descriptor)
                throw error
            }
            // Short at first, since a refresh is one request; never long, so the wait ends soon
            // after the other process is done.
            pause = min(pause * 2, .milliseconds(100))
        }
    }
}

/// An exclusive `flock` held on an open lock file.
private struct HeldFileLock {
    let descriptor: Int32

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
