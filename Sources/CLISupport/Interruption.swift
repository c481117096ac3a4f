import Dispatch
import Foundation

/// Ctrl-C and `kill` for a command that runs until stopped (`basecamp timeline --watch`,
/// `api-sandbox`): the signal ends the work cleanly instead of killing the process mid-write.
public enum Interruption {
    /// Runs `body` until it returns, throws, or SIGINT or SIGTERM arrives; on a signal `body`'s
    /// task is cancelled and awaited, so it can finish what it was printing.
    ///
    /// The signals are caught before `body` starts, so a "Ctrl-C to stop" line that `body`
    /// prints first is true the moment it appears.
    ///
    /// ```swift
    /// let signal = try await Interruption.run {
    ///     context.note("Following; Ctrl-C to stop.")
    ///     try await follow(feed)
    /// }
    /// if signal != nil { context.note("Stopped.") }
    /// ```
    ///
    /// - Returns: The signal that stopped it, or `nil` when `body` ended on its own.
    /// - Throws: What `body` throws before a signal arrives.
    public static func run(_ body: @escaping @Sendable () async throws -> Void) async throws -> Int32? {
        let signals = TerminationSignals()
        defer { withExtendedLifetime(signals) {} }
        let arrivals = signals.arrivals
        return try await withThrowingTaskGroup(of: Int32?.self) { group in
            group.addTask {
                try await body()
                return nil
            }
            group.addTask {
                for await signalNumber in arrivals { return signalNumber }
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            // A body cancelled by the signal may still throw CancellationError; the signal is the result.
            while (try? await group.next()) != nil {}
            return first
        }
    }
}

/// SIGINT and SIGTERM, caught from the moment this is made until it is released: the default
/// handlers are ignored so the signals reach ``next()`` instead of ending the process, and are
/// given back on release. Make it before printing that the command can be stopped, so a Ctrl-C
/// straight after that line is never lost.
///
/// ```swift
/// let signals = TerminationSignals()
/// print("listening; Ctrl-C to stop")
/// let signal = await signals.next()
/// ```
public final class TerminationSignals {
    /// Each signal as it arrives, until this is released.
    public let arrivals: AsyncStream<Int32>
    private let continuation: AsyncStream<Int32>.Continuation
    private var sources: [any DispatchSourceSignal] = []

    /// Starts catching SIGINT and SIGTERM.
    public init() {
        (arrivals, continuation) = AsyncStream.makeStream(of: Int32.self)
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [continuation] in continuation.yield(signalNumber) }
            source.resume()
            sources.append(source)
        }
    }

    /// Stops catching: the signals get their default handlers back, so a Ctrl-C after the
    /// command's work has ended (while it shuts down) still ends the process.
    deinit {
        for source in sources { source.cancel() }
        continuation.finish()
        Self.restoreDefaultHandlers()
    }

    /// Gives SIGINT and SIGTERM their default handlers back, so the next one ends the process:
    /// for a second Ctrl-C when the first is taking too long to take effect.
    public static func restoreDefaultHandlers() {
        for signalNumber in [SIGINT, SIGTERM] { signal(signalNumber, SIG_DFL) }
    }

    /// Waits for the next SIGINT or SIGTERM and returns which; cancelling the wait returns SIGTERM.
    public func next() async -> Int32 {
        for await signalNumber in arrivals { return signalNumber }
        return SIGTERM
    }
}
