import AsyncHTTPClient
import Foundation
import HTTPCore
import NIOCore

/// Reads a response body into memory within the transport's limits and idle timeout.
enum BodyCollector {
    struct Limits {
        /// Whether the status is 400 or above: the body is then cut, not refused.
        var isErrorStatus: Bool
        var body: Int
        var errorBody: Int
    }

    static func limitExceeded(_ limit: Int) -> TransportError {
        TransportError(
            .bodyLimitExceeded(limit: limit),
            requestMayHaveBeenSent: true,
            message: "The response body is larger than the \(limit)-byte limit."
        )
    }

    /// Collects `body`, failing when nothing arrives for `idleTimeout`.
    ///
    /// Leaving the loop early (limit exceeded, error body cut) drops the stream, which makes
    /// AsyncHTTPClient close the connection instead of reading the rest.
    ///
    /// The idle watchdog is a repeating timer on `eventLoop` that cancels the reading task, not a
    /// second Swift task sleeping on a clock: per request that saves a task, a timer and the
    /// thread hops of a task group, which measurably slowed small requests (Scripts/bench.sh).
    static func collect(
        _ body: HTTPClientResponse.Body,
        limits: Limits,
        declaredLength: Int?,
        idleTimeout: Duration,
        eventLoop: any EventLoop
    ) async throws -> Data {
        let lastActivity = Locked(NIODeadline.now())
        let idledOut = Locked(false)
        let reader = Task {
            try await read(body, limits: limits, declaredLength: declaredLength, lastActivity: lastActivity)
        }
        let timeout = TimeAmount(idleTimeout)
        // Checking four times per timeout reports a stalled body within 1.25 × the timeout.
        let interval = TimeAmount.nanoseconds(max(timeout.nanoseconds / 4, 1_000_000))
        let watchdog = eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { task in
            guard NIODeadline.now() - lastActivity.withLock({ $0 }) >= timeout else { return }
            idledOut.withLock { $0 = true }
            reader.cancel()
            task.cancel()
        }
        defer { watchdog.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await reader.value
            } onCancel: {
                reader.cancel()
            }
        } catch {
            guard idledOut.withLock({ $0 }) else { throw error }
            throw TransportError(
                .timedOut,
                requestMayHaveBeenSent: true,
                message: "The server stopped sending the response body."
            )
        }
    }

    private static func read(
        _ body: HTTPClientResponse.Body,
        limits: Limits,
        declaredLength: Int?,
        lastActivity: Locked<NIODeadline>
    ) async throws -> Data {
        var data = Data()
        let cap = limits.isErrorStatus ? limits.errorBody : limits.body
        if let declaredLength, declaredLength > 0 { data.reserveCapacity(min(declaredLength, cap)) }
        do {
            for try await chunk in body {
                lastActivity.withLock { $0 = .now() }
                let room = cap - data.count
                if chunk.readableBytes > room {
                    guard limits.isErrorStatus else { throw limitExceeded(limits.body) }
                    append(chunk, upTo: room, to: &data)
                    break
                }
                append(chunk, upTo: chunk.readableBytes, to: &data)
            }
        } catch let error as TransportError {
            throw error
        } catch {
            throw TransportErrorMapping.transportError(from: error, responseStarted: true)
        }
        // A cancelled stream can end as if it were complete.
        try Task.checkCancellation()
        return data
    }

    private static func append(_ chunk: ByteBuffer, upTo count: Int, to data: inout Data) {
        guard count > 0 else { return }
        chunk.withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            data.append(base.assumingMemoryBound(to: UInt8.self), count: min(count, bytes.count))
        }
    }
}
