import Foundation
import HTTPTypes

/// Takes a permit from the client's ``RateLimiter`` before each request goes out, and pauses the
/// request's key when the server answers 429 (or 503) with a `Retry-After`, for an hour at most:
/// a server's slip or a saturated header must not stop every client sharing the key for years,
/// least of all with a shared limiter whose pause outlives the process.
///
/// Inside retry, so each attempt (and each replay auth asks for) costs a permit, and outside
/// auth, so a request that waited for its permit is authorized afterwards, with a token that is
/// still good, rather than sent with one that expired while it waited. The hops of one attempt's
/// redirect share its permit, and only the origin's own answer pauses the key: a 503 from the
/// storage a redirect led to says nothing of the API's limit.
struct RateLimitStage: Middleware {
    /// The longest pause one answer can put on a key.
    static let longestPause = Duration.seconds(3600)

    let rateLimit: RateLimiting
    let timeSource: any TimeSource

    func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        guard let key = rateLimit.key(request) else { return try await next(request, body, context) }
        try await rateLimit.limiter.acquirePermit(for: key, deadline: context.deadline, timeSource: timeSource)
        let result = try await next(request, body, context)
        if [429, 503].contains(result.response.status.code),
            let header = result.response.headerFields[.retryAfter],
            result.isFromOrigin(of: request),
            let wait = RetryAfter.parse(header, now: timeSource.now())
        {
            await rateLimit.limiter.pause(key, for: min(wait, Self.longestPause), timeSource: timeSource)
        }
        return result
    }
}
