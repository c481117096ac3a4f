import Foundation
import HTTPCore

/// The system's clock, noting how long each sleep was asked to last, so tests check that a
/// limiter slept as long as the database said to wait whatever the machine's load.
final class RecordingTimeSource: TimeSource {
    private let clock = SystemTimeSource()
    private let recorded = Locked<[Duration]>([])

    /// The sleeps asked for, in order.
    var sleeps: [Duration] { recorded.withLock { $0 } }

    func now() -> Date { clock.now() }

    func monotonicNow() -> Duration { clock.monotonicNow() }

    func sleep(for duration: Duration) async throws {
        recorded.withLock { $0.append(duration) }
        try await clock.sleep(for: duration)
    }
}
