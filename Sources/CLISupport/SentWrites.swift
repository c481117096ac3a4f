import Foundation
import HTTPCore

/// The writes a command sent, so its report can say what the server may already have done
/// rather than leave a script to guess.
///
/// A write not safe to repeat that a cancellation cut short may have been applied. Any write that
/// was answered was applied, an idempotent one too, so an error found afterwards (a `--fields`
/// name the answer lacks) must not read as a usage error that changed nothing.
final class SentWrites: Hooks {
    private struct Log {
        var cutShort: [String] = []
        var applied: [String] = []
    }

    private let log = Locked(Log())

    /// Notes a write the cancellation ended without an answer, or one the server answered.
    func operationEnded(_ event: OperationEndEvent) {
        guard event.attempts > 0, event.operation.changesData(by: event.method) else { return }
        let write = "\(event.method) \(event.url)"
        let idempotent = event.operation.idempotent ?? Endpoint<Data>.isIdempotentMethod(event.method)
        if event.cancelled {
            if !idempotent { log.withLock { $0.cutShort.append(write) } }
        } else if event.error == nil, event.fileError == nil {
            log.withLock { $0.applied.append(write) }
        }
    }

    /// What the `cancelled` report adds: the writes that may have been applied, or `nil`.
    var cancellationHint: String? {
        let writes = log.withLock { $0.cutShort }
        guard !writes.isEmpty else { return nil }
        return "The server may or may not have applied \(writes.joined(separator: ", ")); "
            + "check before running the command again."
    }

    /// The writes the server answered, e.g. `POST https://…/todos.json` or `PUT https://…/todos/1.json`.
    var applied: [String] { log.withLock { $0.applied } }
}
