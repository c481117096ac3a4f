import Foundation

/// A value guarded by a lock, for the few places where an actor hop would cost more than the
/// work it protects (per-request bookkeeping on the hot path, URLSession delegate callbacks).
///
/// `Mutex` from the Synchronization module would be the natural choice, but it needs macOS 15 /
/// iOS 18 and this package supports macOS 13 / iOS 16.
package final class Locked<Value>: @unchecked Sendable {
    // Safe because `value` is only ever read or written inside `lock.withLock`, so no two threads
    // touch it at once, and `Value: Sendable` is required by every entry point that lets the
    // value cross isolation (`init` and `withLock`'s result).
    private var value: Value
    private let lock = NSLock()

    package init(_ value: Value) where Value: Sendable {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
