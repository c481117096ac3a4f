import Foundation
import HTTPTypes

/// Makes every attempt of a download to a file continue where the partial file ends.
///
/// It sits inside the retry stage, so a retried download asks only for the bytes it lacks. A
/// `416 Range Not Satisfiable` (the partial file no longer fits the server's) starts over once.
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
        let result = try await next(ranged, body, context)
        guard result.response.status.code == 416, ranged.headerFields[.range] != nil else { return result }
        sink.discard()
        var fresh = request
        sink.prepare(&fresh)
        return try await next(fresh, body, context)
    }
}
