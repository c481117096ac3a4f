import Foundation
import HTTPCore

/// The writes a cancelled command cut short: calls not safe to repeat that were sent and then
/// ended by the cancellation before an answer arrived. The server may have applied them, so the
/// `cancelled` report names them rather than leaving a script to guess.
final class InterruptedWrites: Hooks {
    private let writes = Locked<[String]>([])

    /// Notes a write the cancellation ended without an answer.
    func operationEnded(_ event: OperationEndEvent) {
        let idempotent = event.operation.idempotent ?? Endpoint<Data>.isIdempotentMethod(event.method)
        guard event.cancelled, event.attempts > 0, !idempotent else { return }
        writes.withLock { $0.append("\(event.method) \(event.url)") }
    }

    /// What the `cancelled` report adds: the writes that may have been applied, or `nil`.
    var hint: String? {
        let writes = writes.withLock { $0 }
        guard !writes.isEmpty else { return nil }
        return "The server may or may not have applied \(writes.joined(separator: ", ")); "
            + "check before running the command again."
    }
}
