import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An exclusive `flock` on a lock file, so that processes sharing a file (credentials, a
/// sandbox's state) take turns to read and change it.
///
/// `flock` belongs to the open file, not the process: two holders in one process exclude each
/// other too, and the system drops the lock of a process that dies. The lock file is created
/// (mode 0600) on first use and never removed, since removing it while another process waits on
/// it would let a third one lock a new file at the same path.
///
/// A wait polls: short pauses at first, since a holder's work is one small read and write, then
/// never longer than 100 ms, so the wait ends soon after the holder is done.
package struct FileLock: Sendable, Hashable {
    /// Why the lock was not taken.
    package enum Failure: Error, Sendable, Hashable {
        /// The lock file cannot be opened or locked at all (a missing or read-only directory, a file
        /// system without locks); the reason in words.
        case unavailable(String)
        /// Another holder kept it longer than the wait allowed.
        case timedOut
    }

    /// The lock file.
    package let url: URL

    /// Names the lock file; nothing is touched until the lock is taken.
    package init(_ url: URL) {
        self.url = url
    }

    /// The lock file for `file`: its name plus `.lock`, beside it.
    package init(beside file: URL) {
        self.init(file.deletingLastPathComponent().appending(path: file.lastPathComponent + ".lock"))
    }

    /// Runs `body` holding the lock, blocking the calling thread while another holder has it, for
    /// callers that cannot suspend (a request answered under a lock).
    ///
    /// - Throws: ``Failure`` when the lock cannot be taken within `timeout`; what `body` throws.
    package func withLock<Result>(timeout: Duration, _ body: () throws -> Result) throws -> Result {
        let clock = ContinuousClock()
        let started = clock.now
        var pacing = Pacing()
        while true {
            if let held = try attempt() {
                defer { held.release() }
                return try body()
            }
            guard clock.now - started < timeout else { throw Failure.timedOut }
            Thread.sleep(forTimeInterval: pacing.next().seconds)
        }
    }

    /// Takes the lock, suspending (on `timeSource`) while another holder has it; release the
    /// result when done.
    ///
    /// - Throws: ``Failure``; `CancellationError` when the task is cancelled while waiting.
    package func acquire(timeout: Duration, timeSource: any TimeSource) async throws -> Held {
        let started = timeSource.monotonicNow()
        var pacing = Pacing()
        while true {
            if let held = try attempt() { return held }
            guard timeSource.monotonicNow() - started < timeout else { throw Failure.timedOut }
            try await timeSource.sleep(for: pacing.next())
        }
    }

    /// One try: the held lock, or `nil` when another holder has it.
    private func attempt() throws(Failure) -> Held? {
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure.unavailable(Self.reason()) }
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return Held(descriptor: descriptor) }
            let code = errno
            if code == EINTR { continue }
            close(descriptor)
            if code == EWOULDBLOCK { return nil }
            throw Failure.unavailable(String(cString: strerror(code)))
        }
    }

    private static func reason() -> String {
        String(cString: strerror(errno))
    }

    /// The lock while it is held.
    package struct Held: Sendable {
        fileprivate let descriptor: Int32

        /// Unlocks and closes the lock file.
        package func release() {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    /// The pauses between tries: 1 ms, doubling up to 100 ms.
    private struct Pacing {
        private var pause = Duration.milliseconds(1)

        mutating func next() -> Duration {
            defer { pause = min(pause * 2, .milliseconds(100)) }
            return pause
        }
    }
}
