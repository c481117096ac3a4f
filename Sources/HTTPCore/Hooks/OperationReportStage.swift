import Foundation
import HTTPTypes

/// Reports each call to the hooks: its start, then its end with the final status or error and
/// the attempts retry made.
///
/// A call-level stage, outside retry and around the stage that decodes the answer, so the end
/// event covers every attempt and wait and a decoding failure too; inside the call middlewares,
/// so a tracing span they open wraps the hooks' log lines.
struct OperationReportStage: Middleware {
    let hooks: any Hooks
    let timeSource: any TimeSource

    func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        let start = OperationStartEvent(
            operation: context.operation,
            method: request.method,
            url: request.urlText.map(context.redactor.redact(urlString:)) ?? "",
            callID: context.callID
        )
        hooks.operationStarted(start)
        let started = timeSource.monotonicNow()
        func end(status: Int?, error: APIError? = nil, fileError: FileWriteError? = nil) {
            hooks.operationEnded(
                OperationEndEvent(
                    operation: start.operation,
                    method: start.method,
                    url: start.url,
                    callID: start.callID,
                    duration: timeSource.monotonicNow() - started,
                    status: status,
                    attempts: context.attemptsMade,
                    error: error,
                    fileError: fileError,
                    cancelled: status == nil && error == nil && fileError == nil
                )
            )
        }
        do {
            let result = try await next(request, body, context)
            end(status: result.response.status.code)
            return result
        } catch {
            // The stage inside maps every failure to an APIError but a download's file error;
            // anything else is a cancellation.
            let apiError = error as? APIError
            end(status: apiError?.httpStatus, error: apiError, fileError: error as? FileWriteError)
            throw error
        }
    }
}
