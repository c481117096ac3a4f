import Foundation
import HTTPTypes

/// What ``Client/exchange(_:body:operation:isIdempotent:transfer:mapsErrorStatuses:through:)``
/// returns: the call's final answer, whatever its status.
package struct Exchange: Sendable {
    /// Status and headers.
    package var response: HTTPResponse
    /// The body; empty when a transfer streamed it to its sink.
    package var body: Data
    /// The URL that answered, after any redirects.
    package var url: URL
    /// Whether the cache answered (after a `304 Not Modified` to its conditional request).
    package var fromCache: Bool
}

extension Client {
    /// Sends a request built elsewhere (by a generated client, say) through the client's
    /// pipeline, retry, auth, cache, redirects and hooks included, and returns the final answer
    /// as it is instead of decoding it.
    ///
    /// The request needs its scheme, authority and path; the client's default headers are added
    /// where it sets none of the same name.
    ///
    /// - Parameters:
    ///   - operation: Names the call in hooks and metrics; its retry policy, if any, replaces the
    ///     client's.
    ///   - isIdempotent: Whether the request may be repeated without applying its effect twice.
    ///   - transfer: Files the body is streamed from or to, as for uploads and downloads.
    ///   - mapsErrorStatuses: Whether a final answer that is neither 2xx nor `304` throws the
    ///     ``APIError`` the client would throw for it, rather than coming back.
    ///   - callStage: A stage for this call alone, right outside retry.
    /// - Throws: ``APIError`` for a failed call (and, with `mapsErrorStatuses`, for an error
    ///   status); `CancellationError` when the task is cancelled.
    package func exchange(
        _ request: HTTPRequest,
        body: Data?,
        operation: OperationMetadata,
        isIdempotent: Bool,
        transfer: FileTransfer? = nil,
        mapsErrorStatuses: Bool = false,
        through callStage: (any Middleware)? = nil
    ) async throws -> Exchange {
        let request = withDefaultHeaders(request)
        let isSafeToRepeat = RetryStage.isSafeToRepeat(
            request,
            isIdempotent: isIdempotent,
            idempotencyKeyHeader: configuration.idempotencyKeyHeader
        )
        let answered = try await call(
            request,
            body: body,
            operation: operation,
            isIdempotent: isIdempotent,
            deadline: nil,
            transfer: transfer,
            through: callStage
        ) { [self] result in
            let status = result.response.status.code
            let final =
                mapsErrorStatuses && status != 304
                ? try checked(result, takesRedirects: false, isSafeToRepeat: isSafeToRepeat) : result
            return Response(
                value: NoContent(),
                status: final.response.status,
                headers: final.response.headerFields,
                requestID: nil,
                body: final.body,
                url: final.url,
                fromCache: final.fromCache
            )
        }
        return Exchange(
            response: HTTPResponse(status: answered.status, headerFields: answered.headers),
            body: answered.body,
            url: answered.url,
            fromCache: answered.fromCache
        )
    }
}
