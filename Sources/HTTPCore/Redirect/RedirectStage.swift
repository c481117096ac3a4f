import Foundation
import HTTPTypes

/// Follows redirects hop by hop, as the call's ``RedirectPolicy`` allows, so a transport only
/// ever sends one hop.
///
/// It sits inside auth, the cache and the user's middlewares, which see one request per attempt
/// with the credentials on it; the policy strips those credentials when a hop leaves the origin,
/// so nothing outside this stage can put them back. Each hop goes through the request hooks and
/// the transport on its own, so hooks report every request that was really sent.
struct RedirectStage: Middleware {
    /// The client's policy, its credential headers including every secret header the redactor knows.
    let policy: RedirectPolicy
    /// The header that makes a write safe to repeat, when the client sends one.
    let idempotencyKeyHeader: HTTPField.Name?

    init(policy: RedirectPolicy, redactor: Redactor, idempotencyKeyHeader: HTTPField.Name?) {
        var policy = policy
        policy.credentialHeaders.formUnion(redactor.secretHeaders)
        self.policy = policy
        self.idempotencyKeyHeader = idempotencyKeyHeader
    }

    func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        var policy = self.policy
        if let own = context.operation.redirects {
            // An operation chooses how far to follow, never to forward the client's credentials.
            policy = own
            policy.credentialHeaders.formUnion(self.policy.credentialHeaders)
        }
        var hop = (request: request, body: body, context: context)
        var redirects = 0
        var redirectedToGET = false
        while true {
            var result: TransportResponse
            do {
                result = try await next(hop.request, hop.body, hop.context)
            } catch var error as TransportError where redirects > 0 {
                // The first hop reached the server (it answered with the redirect), so a later
                // hop's failure never makes the call safe to send again: a POST answered with a
                // 303 has been applied.
                error.requestMayHaveBeenSent = true
                throw error
            }
            // A write redirected to a GET that is not followed was handled all the same.
            let handled = handledWrite(request, hop.request, result, redirectedToGET, context)
            result.isAfterRedirectToGET = redirectedToGET || handled
            // Most answers are decided without working out the request's URL, which costs a parse.
            guard policy.mayFollow(result.response) else { return result }
            switch policy.decide(
                request: hop.request,
                body: hop.body,
                url: hop.request.url ?? result.url,
                response: result.response,
                redirectsSoFar: redirects
            ) {
            case .deliver:
                return result
            case .refuse(let error):
                guard handled else { throw error }
                throw ErrorMapping.outcomeUnknown(APIError.Details(message: error.message, cause: error))
            case .follow(let nextRequest, let nextBody, let target):
                // Credentials an auth strategy put in a form body cannot be stripped as headers
                // are, so a 307 or 308 that would carry them to another origin is delivered.
                if let nextBody, AuthorizedRequest.isForm(nextRequest), let from = hop.request.url,
                    !RedirectPolicy.sameOrigin(from, target),
                    context.redactor.containsSecret(formEncoded: String(decoding: nextBody, as: UTF8.self))
                {
                    return result
                }
                redirectedToGET = redirectedToGET || nextRequest.method != hop.request.method
                hop.request = nextRequest
                hop.body = nextBody
                // A redirect that turned the request into a GET (a 303, say) dropped its upload.
                hop.context.transfer = context.transfer?.forHop(nextRequest)
                redirects += 1
            }
        }
    }

    /// Whether `result`, the answer to `hop`, shows that the server handled `request`, a write that
    /// is not safe to repeat: it redirected it to a GET, on this hop or an earlier one, so
    /// fetching the answer is all that was left.
    private func handledWrite(
        _ request: HTTPRequest,
        _ hop: HTTPRequest,
        _ result: TransportResponse,
        _ redirectedToGET: Bool,
        _ context: RequestContext
    ) -> Bool {
        (redirectedToGET || RedirectPolicy.turnsIntoGET(hop.method, status: result.response.status.code))
            && !RetryStage.isSafeToRepeat(
                request,
                isIdempotent: context.isIdempotent,
                idempotencyKeyHeader: idempotencyKeyHeader
            )
    }
}
