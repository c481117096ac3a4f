public import Foundation
public import HTTPCore
import HTTPTypes

extension RequestRate {
    /// Basecamp's limit most integrations meet: 50 requests per account in any 10 seconds.
    ///
    /// Basecamp has other, unpublished windows too; the client also pauses the account whenever
    /// a 429's `Retry-After` says so.
    public static let basecamp = RequestRate(50, per: .seconds(10))
}

extension RateLimiting {
    /// Basecamp's rate limit, one budget per account: requests to `baseURL`'s host spend from
    /// the account id their path starts with. Other requests (sign-in, a download from the
    /// storage host) are not limited.
    ///
    /// ```swift
    /// var config = BasecampConfig()
    /// config.rateLimiter = TokenBucketRateLimiter(.basecamp)
    /// ```
    ///
    /// - Parameters:
    ///   - limiter: Where permits come from; share it (or a fleet-wide one) between the clients
    ///     that share an account.
    ///   - baseURL: The API's address, without the account id.
    public static func basecamp(limiter: any RateLimiter, baseURL: URL = BasecampConfig.defaultBaseURL) -> RateLimiting
    {
        let host = baseURL.host?.lowercased()
        let port = baseURL.port
        let basePath = baseURL.path.hasSuffix("/") ? String(baseURL.path.dropLast()) : baseURL.path
        return RateLimiting(limiter: limiter) { request in
            guard let url = request.url, url.host?.lowercased() == host, url.port == port else { return nil }
            let path = url.path
            guard path.hasPrefix(basePath + "/") else { return nil }
            let account = path.dropFirst(basePath.count + 1).prefix { $0 != "/" }
            return !account.isEmpty && account.allSatisfy(\.isASCII) && account.allSatisfy(\.isNumber)
                ? String(account) : nil
        }
    }
}
