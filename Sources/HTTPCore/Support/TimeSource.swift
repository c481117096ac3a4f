import Foundation

/// Where HTTPCore reads the time and how it waits.
///
/// Backoff, deadlines, token expiry and polling all go through a `TimeSource`, so tests can
/// substitute a clock that never really sleeps (see `TestClock` in HTTPCoreTesting).
public protocol TimeSource: Sendable {
    /// Wall-clock time, for HTTP dates (`Retry-After`, `Last-Modified`) and credential expiry.
    func now() -> Date

    /// A monotonic reading since an arbitrary fixed point, for durations and deadlines.
    func monotonicNow() -> Duration

    /// Suspends for `duration`; throws `CancellationError` if the task is cancelled meanwhile.
    func sleep(for duration: Duration) async throws
}

/// The real clock: `Date()` for wall time and `ContinuousClock` for durations and sleeping.
public struct SystemTimeSource: TimeSource {
    private static let origin = ContinuousClock.now

    /// Creates the system time source.
    public init() {}

    /// The current wall-clock time.
    public func now() -> Date { Date() }

    /// Time elapsed on the continuous clock since the process first asked.
    public func monotonicNow() -> Duration { ContinuousClock.now - Self.origin }

    /// Sleeps on the continuous clock.
    public func sleep(for duration: Duration) async throws {
        try await ContinuousClock().sleep(for: duration)
    }
}

extension TimeSource where Self == SystemTimeSource {
    /// The real clock.
    public static var system: SystemTimeSource { SystemTimeSource() }
}

extension Duration {
    /// The duration in seconds as a `Double`, for `TimeInterval`-based APIs and display.
    package var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
