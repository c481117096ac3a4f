import Foundation
import HTTPTypes

/// The innermost stage: reports each request sent to the hooks, timed on the client's clock.
///
/// It sits inside the redirect stage, so a redirected attempt reports each hop, under the
/// attempt's number, with the URL and headers that hop really carried.
struct RequestHooksStage: Middleware {
    let hooks: any Hooks
    let requestIDHeader: HTTPField.Name
    let timeSource: any TimeSource

    func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        let url = request.urlText.map(context.redactor.redact(urlString:)) ?? ""
        hooks.requestStarted(
            RequestStartEvent(
                operation: context.operation,
                method: request.method,
                url: url,
                headers: context.redactor.redact(request.headerFields),
                callID: context.callID,
                attempt: context.attempt
            )
        )
        let started = timeSource.monotonicNow()
        var end = RequestEndEvent(
            operation: context.operation,
            method: request.method,
            url: url,
            callID: context.callID,
            attempt: context.attempt,
            status: nil,
            headers: nil,
            requestID: nil,
            duration: .zero,
            fromCache: false,
            error: nil
        )
        do {
            let result = try await next(request, body, context)
            end.duration = timeSource.monotonicNow() - started
            end.status = result.response.status.code
            end.headers = context.redactor.redact(result.response.headerFields)
            end.requestID = result.response.headerFields[requestIDHeader]
            // The cache stage, outside this one, serves a 304 to its conditional request from the
            // cache, so the attempt is reported as answered from the cache.
            end.fromCache = result.fromCache || (result.response.status.code == 304 && context.isCacheRevalidation)
            hooks.requestEnded(end)
            return result
        } catch {
            end.duration = timeSource.monotonicNow() - started
            end.error = ErrorMapping.apiError(from: error, isIdempotent: context.isIdempotent) as? APIError
            hooks.requestEnded(end)
            throw error
        }
    }
}
