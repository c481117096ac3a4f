import Foundation
import HTTPTypes

/// The innermost middleware: reports each attempt to the hooks.
struct RequestHooksStage: Middleware {
    let hooks: any Hooks
    let requestIDHeader: HTTPField.Name

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
        let clock = ContinuousClock()
        let started = clock.now
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
            end.duration = clock.now - started
            end.status = result.response.status.code
            end.headers = context.redactor.redact(result.response.headerFields)
            end.requestID = result.response.headerFields.joinedValue(for: requestIDHeader)
            // The cache stage sits outside this one: a 304 to its conditional request is about to
            // be answered from the cache, so report it as such.
            end.fromCache = result.fromCache || (result.response.status.code == 304 && CacheRevalidation.isActive)
            hooks.requestEnded(end)
            return result
        } catch {
            end.duration = clock.now - started
            end.error = ErrorMapping.apiError(from: error, isIdempotent: context.isIdempotent) as? APIError
            hooks.requestEnded(end)
            throw error
        }
    }
}
