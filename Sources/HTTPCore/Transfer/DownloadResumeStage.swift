import Foundation
import HTTPTypes

/// Makes every attempt of a download to a file continue where the partial file ends.
///
/// It sits inside the retry stage, so a retried download asks only for the bytes it lacks. A
/// `416 Range Not Satisfiable` (the partial file no longer fits the server's) starts over once,
/// and an answer that ends short of the size it announced fails the attempt as a lost
/// connection, so the retry asks for the rest and the file is never completed without it.
struct DownloadResumeStage: Middleware {
    func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        guard let sink = context.transfer?.download else { return try await next(request, body, context) }
        var ranged = request
        sink.prepare(&ranged)
        var result = try await next(ranged, body, context)
        if result.response.status.code == 416, ranged.headerFields[.range] != nil {
            sink.discard()
            var fresh = request
            sink.prepare(&fresh)
            result = try await next(fresh, body, context)
        }
        if (200..<300).contains(result.response.status.code), sink.isShort {
            throw TransportError(
                .connectionLost,
                requestMayHaveBeenSent: true,
                message: "The server sent \(sink.bytesOnDisk) bytes of the file and not the rest."
            )
        }
        return result
    }
}
