import Foundation
import HTTPTypes

/// The innermost call-level stage the client adds to every call: turns the pipeline's final
/// answer into the call's outcome and keeps it for the client to return.
///
/// A failure becomes an ``APIError``, a non-2xx answer the error its status and body describe,
/// and a 2xx answer the endpoint's decoded value. It runs inside the operation hooks and the call
/// middlewares, so they see the call end as the caller does, a decoding failure included.
final class AnswerStage<Value: Sendable>: Middleware {
    private let isIdempotent: Bool
    private let answer: @Sendable (TransportResponse) throws -> Response<Value>
    private let answered = Locked<Response<Value>?>(nil)

    /// Creates the stage for one call.
    ///
    /// - Parameters:
    ///   - isIdempotent: Whether the call's request is safe to repeat, which decides whether a
    ///     failure after sending is `network` or `ambiguous`.
    ///   - answer: The call's outcome for an answer: its decoded value, or the error it means.
    init(isIdempotent: Bool, answer: @escaping @Sendable (TransportResponse) throws -> Response<Value>) {
        self.isIdempotent = isIdempotent
        self.answer = answer
    }

    func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        let result: TransportResponse
        do {
            result = try await next(request, body, context)
        } catch {
            throw ErrorMapping.apiError(from: error, isIdempotent: isIdempotent)
        }
        let value: Response<Value>
        do {
            value = try answer(result)
        } catch let error as APIError where result.earlierAttemptMayHaveBeenApplied {
            throw error.notingEarlierAttempt()
        }
        answered.withLock { $0 = value }
        return result
    }

    /// The call's outcome: the value decoded on the way out, or, when a call middleware answered
    /// without calling on, `result` decoded now.
    ///
    /// - Throws: ``APIError`` for a non-2xx `result` or one that does not decode.
    func response(for result: TransportResponse) throws -> Response<Value> {
        if let value = answered.withLock({ $0 }) { return value }
        return try answer(result)
    }
}
