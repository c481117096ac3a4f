import Foundation

extension APIError {
    /// The error a ``RateLimiter`` throws when its next permit for `key` comes after the call's
    /// deadline: the request was never sent.
    ///
    /// - Parameters:
    ///   - key: The budget the request would have spent from.
    ///   - wait: How long until a permit would have come; `nil` when the limiter cannot tell.
    package static func permitAfterDeadline(key: String, wait: Duration?) -> APIError {
        let when = wait.map { " for another \(String(format: "%.1f", $0.seconds)) s" } ?? ""
        return .rateLimit(
            APIError.Details(
                message:
                    "The call's deadline passed before the client's rate limit for \"\(key)\" allowed the request: no permit\(when). It was not sent.",
                hint: "Raise the deadline, send fewer requests at once, or try again later.",
                retryAfter: wait
            )
        )
    }
}
