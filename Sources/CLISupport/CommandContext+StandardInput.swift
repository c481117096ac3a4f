import Dispatch
import Foundation
import HTTPCore

extension CommandContext {
    /// Stdin up to its end, or `limit` bytes and one more (so a caller can refuse endless input),
    /// read through ``CLIEnvironment/readStandardInput``.
    ///
    /// The read blocks, so it runs off the concurrency pool; a command cancelled meanwhile (Ctrl-C
    /// while someone is still typing the input) stops waiting at once with `CancellationError`,
    /// and the process ends with the read still pending.
    ///
    /// - Throws: `CancellationError`, or what the environment's reader throws (a closed stdin).
    public func standardInput(limit: Int) async throws -> Data {
        let read = environment.readStandardInput
        let waiter = Locked<CheckedContinuation<Data, any Error>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, any Error>) in
                waiter.withLock { $0 = continuation }
                // Cancelled before the continuation was stored: the handler found nothing to end.
                if Task.isCancelled {
                    waiter.withLock { $0.take() }?.resume(throwing: CancellationError())
                    return
                }
                DispatchQueue.global().async {
                    let result = Result { try read(limit) }
                    waiter.withLock { $0.take() }?.resume(with: result)
                }
            }
        } onCancel: {
            waiter.withLock { $0.take() }?.resume(throwing: CancellationError())
        }
    }
}
