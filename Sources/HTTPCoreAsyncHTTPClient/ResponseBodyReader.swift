import AsyncHTTPClient
import Foundation
import HTTPCore
import HTTPTypes
import NIOCore

/// Reads a response body as it streams in, within the body limits and the idle timeout.
///
/// A success body over its limit fails the request (at once when its `Content-Length` says so);
/// an error body is cut at the error-body limit and the rest dropped. Leaving the body early
/// makes AsyncHTTPClient close the connection instead of reading what is left.
struct ResponseBodyReader {
    let head: HTTPResponse
    /// False for a HEAD, 1xx, 204 or 304 answer, which has no body whatever length it announces
    /// (RFC 9110 §8.6).
    let bodyFollows: Bool
    let options: TransportOptions

    private var isErrorStatus: Bool { head.status.code >= 400 }

    /// The body, read under an ``IdleWatchdog``.
    ///
    /// - Throws: ``HTTPCore/TransportError`` for an oversized success body or a body that stops
    ///   arriving; AsyncHTTPClient's errors otherwise.
    func read(_ body: HTTPClientResponse.Body) async throws -> Data {
        let cap = isErrorStatus ? options.maxErrorBodySize : options.maxBodySize
        let isErrorStatus = isErrorStatus
        if bodyFollows, !isErrorStatus, let declared = head.headerFields[.contentLength].flatMap(Int.init),
            declared > cap
        {
            throw Self.limitExceeded(cap)
        }
        return try await IdleWatchdog.run(timeout: options.timeout, orThrow: Self.stalled) { watchdog in
            var kept = ByteBuffer()
            for try await var part in body {
                watchdog.touch()
                let room = cap - kept.readableBytes
                guard part.readableBytes > room else {
                    kept.writeBuffer(&part)
                    continue
                }
                guard isErrorStatus else { throw Self.limitExceeded(cap) }
                if let rest = part.readSlice(length: room) { kept.writeImmutableBuffer(rest) }
                break
            }
            return Data(kept.readableBytesView)
        }
    }

    private static func limitExceeded(_ limit: Int) -> TransportError {
        TransportError(
            .bodyLimitExceeded(limit: limit),
            requestMayHaveBeenSent: true,
            message: "The response body is larger than the \(limit)-byte limit."
        )
    }

    private static func stalled() -> any Error {
        TransportError(
            .timedOut,
            requestMayHaveBeenSent: true,
            message: "The server stopped sending the response body."
        )
    }
}
