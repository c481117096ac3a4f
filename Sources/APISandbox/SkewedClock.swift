public import Foundation
public import HTTPCore

/// A clock that runs `offset` ahead of (or, negative, behind) another: the clock of a server
/// whose time is wrong, for testing what a client does about clock skew.
///
/// Only the wall time moves; durations and sleeping are the base clock's, so waits are as long.
public struct SkewedClock: TimeSource {
    /// The clock it follows.
    public var base: any TimeSource
    /// How far ahead of `base` it reads; negative is behind.
    public var offset: Duration

    /// Creates a clock `offset` ahead of `base` (the system's by default).
    public init(offset: Duration, base: any TimeSource = SystemTimeSource()) {
        self.base = base
        self.offset = offset
    }

    /// The base clock's time moved by ``offset``.
    public func now() -> Date { base.now().addingTimeInterval(offset.seconds) }

    /// The base clock's reading.
    public func monotonicNow() -> Duration { base.monotonicNow() }

    /// Sleeps on the base clock.
    public func sleep(for duration: Duration) async throws { try await base.sleep(for: duration) }
}
