import Dispatch
import Foundation

/// Ctrl-C and `kill` for a command that runs until stopped (`basecamp timeline --watch`,
/// `api-sandbox`): the signal ends the work cleanly instead of killing the process mid-write.
public enum Interruption {
    /// Runs `body` until it returns, throws, or SIGINT or SIGTERM arrives; on a signal `body`'s
    /// task is cancelled and awaited, so it can finish what it was printing.
    ///
    /// ```swift
    /// let signal = try await Interruption.run { try await follow(feed) }
    /// if signal != nil { context.note("Stopped.") }
    /// ```
    ///
    /// - Returns: The signal that stopped it, or `nil` when `body` ended on its own.
    /// - Throws: What `body` throws before a signal arrives.
    public static func run(_ body: @escaping @Sendable () async throws -> Void) async throws -> Int32? {
        try await withThrowingTaskGroup(of: Int32?.self) { group in
            group.addTask {
                try await body()
                return nil
            }
            group.addTask { await nextTerminationSignal() }
            let first = try await group.next() ?? nil
            group.cancelAll()
            // A body cancelled by the signal may still throw CancellationError; the signal is the result.
            while (try? await group.next()) != nil {}
            return first
        }
    }

    /// Waits for SIGINT or SIGTERM and returns which. The default handlers are ignored first, so
    /// the signal reaches this wait instead of ending the process; cancelling the wait returns
    /// SIGTERM.
    public static func nextTerminationSignal() async -> Int32 {
        let (signals, continuation) = AsyncStream.makeStream(of: Int32.self)
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { continuation.yield(signalNumber) }
            source.resume()
            sources.append(source)
        }
        defer {
            for source in sources { source.cancel() }
        }
        for await signalNumber in signals {
            return signalNumber
        }
        return SIGTERM
    }
}
