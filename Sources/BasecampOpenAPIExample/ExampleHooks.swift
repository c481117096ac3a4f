import Foundation
import HTTPCore

/// Prints what the pipeline did under the generated client: retries, token refreshes and cache
/// answers, each with the OpenAPI operation id it happened to.
struct ExampleHooks: Hooks {
    func retryScheduled(_ event: RetryEvent) {
        let status = event.error.httpStatus.map { "\($0)" } ?? event.error.code.rawValue
        let (seconds, attoseconds) = event.delay.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        print(
            "  [hook] \(event.operation.name): \(status), retrying in \(milliseconds) ms (attempt \(event.attempt + 1))"
        )
    }

    func auth(_ event: AuthEvent) {
        guard event.kind == .refreshed else { return }
        print("  [hook] \(event.operation.name): access token refreshed (\(event.trigger.rawValue))")
    }

    func cache(_ event: CacheEvent) {
        guard event.kind == .revalidated else { return }
        print("  [hook] \(event.operation.name): 304 Not Modified, answered from the cache")
    }
}
