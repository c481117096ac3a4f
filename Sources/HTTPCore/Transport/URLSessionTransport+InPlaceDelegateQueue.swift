#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

/// The delegate queue of a ``URLSessionTransport`` session on Linux: each delegate callback runs
/// where FoundationNetworking raises it, on the session's own serial work queue, instead of being
/// wrapped in an `Operation` and handed to another thread.
///
/// FoundationNetworking wraps every callback (the head, each part of the body, the end) in a
/// `BlockOperation` on the delegate queue, and each one wakes a thread. Measured with
/// `httpcore-bench profile-urlsession`: a bare delegate that only collects the body was 5.5%
/// slower than `data(for:)` on a 4 KiB GET, and took 43 µs more CPU time per call. URLSession's own
/// async `data(for:)` avoids the same cost by completing its tasks inline on the work queue.
///
/// What runs on this queue must not wait on the session: `URLSessionTask.cancel()` and
/// `resume()` enter the work queue synchronously, and calling them from a callback would wait on
/// the very queue the callback holds. ``SessionDelegate`` therefore cancels from another thread.
/// Callbacks stay in order: the work queue is serial, as the default delegate queue was.
///
/// Holding nothing, one queue serves every session (``shared``).
///
/// `@unchecked Sendable` restates FoundationNetworking's own `@unchecked Sendable` on
/// OperationQueue, which Swift requires a subclass to repeat: this subclass adds no stored state
/// and only runs blocks where they are handed over, so it is exactly as safe to share as the
/// queue it refines.
final class InPlaceDelegateQueue: OperationQueue, @unchecked Sendable {
    /// The queue every ``URLSessionTransport`` session on Linux uses.
    static let shared = InPlaceDelegateQueue()

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }

    override func addOperation(_ operation: Operation) {
        operation.start()
    }
}
#endif
