import Foundation
import HTTPTypes

/// The outermost attempt stage: repeats attempts that failed for a retryable reason, within the
/// policy's attempts, the call's deadline and the client's retry budget, and replays an attempt
/// once when an inner stage returns its answer with a ``TransportResponse/replay`` request.
struct RetryStage: Middleware {
    let policy: RetryPolicy
    let budget: RetryBudgetLedger?
    let timeSource: any TimeSource
    let hooks: (any Hooks)?
    let idempotencyKeyHeader: HTTPField.Name?
    let requestIDHeader: HTTPField.Name

    init(configuration: ClientConfiguration, hooks: (any Hooks)?) {
        policy = configuration.retry
        budget = configuration.retryBudget.map(RetryBudgetLedger.init(budget:))
        timeSource = configuration.timeSource
        self.hooks = hooks
        idempotencyKeyHeader = configuration.idempotencyKeyHeader
        requestIDHeader = configuration.requestIDHeader
    }

    /// Whether sending `request` twice cannot apply its effect twice: the operation is idempotent,
    /// or it is a POST or PATCH that carries an idempotency key, or will once this stage adds the
    /// key the client is configured to send.
    static func isSafeToRepeat(
        _ request: HTTPRequest,
        isIdempotent: Bool,
        idempotencyKeyHeader: HTTPField.Name?
    ) -> Bool {
        guard !isIdempotent else { return true }
        guard request.method == .post || request.method == .patch else { return false }
        return idempotencyKeyHeader != nil || request.headerFields.contains(.idempotencyKey)
    }

    /// Runs one call: its first attempt and any retries or replay. When an earlier attempt of a
    /// write may have been applied, the answer or error the call ends with is marked so.
    func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        var mayHaveApplied = false
        do {
            var result = try await attempts(
                request,
                body: body,
                context: context,
                next: next,
                mayHaveApplied: &mayHaveApplied
            )
            result.earlierAttemptMayHaveBeenApplied = mayHaveApplied
            return result
        } catch let error where mayHaveApplied && !(error is CancellationError) {
            let mapped = ErrorMapping.apiError(from: error, isIdempotent: context.isIdempotent)
            throw (mapped as? APIError)?.notingEarlierAttempt() ?? mapped
        }
    }

    /// The attempts of one call; sets `mayHaveApplied` once an attempt that may have applied a
    /// write is followed by another attempt or by an error of this stage's own.
    private func attempts(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext,
        mayHaveApplied: inout Bool
    ) async throws -> TransportResponse {
        let policy = context.operation.retry ?? self.policy
        var request = request
        var context = context
        // Keys are a POST and PATCH convention (the IETF Idempotency-Key draft). A write made with
        // another method (an API that creates with GET) keeps no key, so it is never treated as
        // safe to repeat by a server that may not know keys.
        let keyable = request.method == .post || request.method == .patch
        if keyable, let header = idempotencyKeyHeader, !context.isIdempotent, !request.headerFields.contains(header) {
            // One key per logical call, sent unchanged on every attempt, so the server can
            // recognise a repeat and apply the write once.
            request.headerFields[header] = UUID().uuidString
        }
        let eligible = Self.isSafeToRepeat(
            request,
            isIdempotent: context.isIdempotent,
            idempotencyKeyHeader: idempotencyKeyHeader
        )
        let isWrite = !context.isIdempotent || context.operation.changesData(by: request.method)
        budget?.recordFirstAttempt(at: timeSource.monotonicNow())

        while true {
            if let deadline = context.deadline, timeSource.monotonicNow() >= deadline {
                throw deadlineError(context: context, lastError: nil)
            }
            let outcome: Result<TransportResponse, any Error>
            context.countAttempt()
            do {
                var result = try await next(request, body, context)
                if result.replay != nil {
                    result.replay = nil
                    // One replay per call: an answer that asks again is the caller's.
                    guard context.hasBeenReplayed else {
                        context.hasBeenReplayed = true
                        context.attempt += 1
                        continue
                    }
                    return result
                }
                // The common case, decided without building a retry reason. A 429 refused the
                // request before acting on it, so it is safe to repeat whatever the method, unless
                // it answers the GET a 303 led to, after the server handled the write.
                let status = result.response.status.code
                guard eligible || (status == 429 && !result.isAfterRedirectToGET),
                    policy.retryableStatuses.contains(status)
                else { return result }
                outcome = .success(result)
            } catch let error as CancellationError {
                throw error
            } catch {
                outcome = .failure(error)
            }

            guard let reason = retryReason(for: outcome, policy: policy, eligible: eligible, context: context),
                context.attempt < policy.maxAttempts
            else { return try outcome.get() }
            // Past this point the call goes on without this attempt, or ends with an error of
            // this stage's own: either way, what it may have done is now an earlier attempt's.
            let appliedSoFar = mayHaveApplied || (isWrite && Self.mayHaveApplied(outcome))

            let delay: Duration
            if let retryAfter = reason.retryAfter {
                guard retryAfter <= policy.maxRetryAfter else {
                    mayHaveApplied = appliedSoFar
                    throw tooLongRetryAfter(retryAfter, reason: reason.error, policy: policy)
                }
                delay = retryAfter
            } else {
                delay = policy.delay(forRetry: context.attempt)
            }
            let now = timeSource.monotonicNow()
            if let deadline = context.deadline, now + delay >= deadline {
                mayHaveApplied = appliedSoFar
                // A wait the server asked for is its answer (a 429 stays rate_limit, with the wait),
                // not a timeout of this client's.
                guard let retryAfter = reason.retryAfter else {
                    throw deadlineError(context: context, lastError: reason.error)
                }
                throw waitPastDeadline(retryAfter, reason: reason.error)
            }
            if let budget, !budget.tryWithdrawRetry(at: now) {
                return try outcome.get()
            }
            mayHaveApplied = appliedSoFar
            hooks?.retryScheduled(
                RetryEvent(
                    operation: context.operation,
                    method: request.method,
                    url: request.urlText.map(context.redactor.redact(urlString:)) ?? "",
                    callID: context.callID,
                    attempt: context.attempt,
                    error: reason.error,
                    delay: delay
                )
            )
            try await timeSource.sleep(for: delay)
            context.attempt += 1
        }
    }

    /// Whether an attempt that ended with `outcome` may have applied its request: a 500, 502 or
    /// 504 answered it, or the connection failed after it was sent.
    private static func mayHaveApplied(_ outcome: Result<TransportResponse, any Error>) -> Bool {
        switch outcome {
        case .success(let result):
            return APIError.outcomeUnknownStatuses.contains(result.response.status.code)
        case .failure(let error):
            let transportError = error as? TransportError ?? (error as? APIError)?.cause as? TransportError
            return transportError?.requestMayHaveBeenSent ?? false
        }
    }

    private struct Reason {
        var error: APIError
        var retryAfter: Duration?
    }

    private func retryReason(
        for outcome: Result<TransportResponse, any Error>,
        policy: RetryPolicy,
        eligible: Bool,
        context: RequestContext
    ) -> Reason? {
        switch outcome {
        case .success(let result):
            // `run` passes on only answers that ask for a retry: the status is one the policy
            // retries, and the call is eligible or the answer is a 429.
            let now = timeSource.now()
            let error = result.apiError(decodedWith: nil, requestIDHeader: requestIDHeader, receivedAt: now)
            let retryAfter = result.response.headerFields[.retryAfter].flatMap { RetryAfter.parse($0, now: now) }
            return Reason(error: error, retryAfter: retryAfter)
        case .failure(let failure):
            guard policy.retriesNetworkErrors else { return nil }
            if let transportError = failure as? TransportError {
                switch transportError.kind {
                case .invalidURL, .bodyLimitExceeded, .redirectRefused: return nil
                default: break
                }
                // A request that never left is safe to send again, whatever its method.
                guard eligible || !transportError.requestMayHaveBeenSent else { return nil }
            } else if let apiError = failure as? APIError {
                guard apiError.code == .network, eligible else { return nil }
            } else {
                return nil
            }
            let mapped = ErrorMapping.apiError(from: failure, isIdempotent: true) as? APIError
            return mapped.map { Reason(error: $0, retryAfter: nil) }
        }
    }

    private func tooLongRetryAfter(_ wait: Duration, reason: APIError, policy: RetryPolicy) -> APIError {
        var details = reason.details
        details.retryAfter = wait
        details.message =
            "The server asked to wait \(Self.format(wait)) before retrying, longer than this client's limit of \(Self.format(policy.maxRetryAfter))."
        details.hint = "Try again after \(Self.format(wait)), or raise maxRetryAfter."
        details.cause = reason
        return .rateLimit(details)
    }

    private func waitPastDeadline(_ wait: Duration, reason: APIError) -> APIError {
        var details = reason.details
        details.retryAfter = wait
        details.message += " The server asked to wait \(Self.format(wait)) before retrying, past the call's deadline."
        details.hint = "Try again after \(Self.format(wait)), or raise the deadline."
        return APIError(reason.code, details)
    }

    private func deadlineError(context: RequestContext, lastError: APIError?) -> APIError {
        var message = "The call's deadline passed after \(context.attempt) attempt\(context.attempt == 1 ? "" : "s")."
        if let lastError { message += " Last error: \(lastError.message)" }
        return .network(
            APIError.Details(
                message: message,
                hint: "Raise the deadline or try again later.",
                httpStatus: lastError?.httpStatus,
                requestID: lastError?.requestID,
                cause: lastError
            )
        )
    }

    private static func format(_ duration: Duration) -> String {
        let seconds = duration.seconds
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }
}
