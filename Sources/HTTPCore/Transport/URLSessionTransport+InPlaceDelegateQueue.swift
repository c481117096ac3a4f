#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

/// The delegate queue of a ``URLSessionTransport`` session on Linux: each callback runs where
/// FoundationNetworking raises it, on the session's serial work queue, instead of waking another
/// thread for every part of every response (the `URLSessionTransport.send` rows of
/// `httpcore-bench` and `profile-urlsession`'s "in-place delegate" side show the gain).
///
/// What runs here must not wait on the session: `cancel()` and a challenge's answer enter the
/// work queue synchronously, so ``SessionDelegate`` makes those calls from another thread.
///
/// `@unchecked Sendable` restates FoundationNetworking's own `@unchecked Sendable` on
/// OperationQueue, which Swift requires a subclass to repeat: this subclass adds no stored state
/// and only runs blocks where they are handed over.
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
