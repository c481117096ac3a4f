import Basecamp
import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCorePostgres

/// The parts of a worker's client that decide whether the fleet is coordinated: where the
/// sign-in lives and how its refresh is locked, where rate-limit permits come from, and where
/// cached pages are kept.
struct FleetClientParts {
    let auth: RefreshingTokenAuth
    let limiter: any RateLimiter
    let cache: ResponseCache

    /// The fleet's parts in `database`, or this process's own when it is `nil`.
    ///
    /// Tokens are refreshed when they expire, not ahead: the sandbox's tokens live a few seconds,
    /// and the SDK's minute of margin would refresh on every request.
    init(fleet: FleetOptions, database: PostgresDatabase?) async throws {
        if let database {
            auth = fleet.oauth.refreshingAuth(store: fleet.credentialStore(database), refreshMargin: .zero)
            cache = ResponseCache(shared: PostgresCacheStorage(database: database, namespace: fleet.run))
            limiter = Self.sharedLimiter(database)
        } else {
            let signIn = await FileCredentialStore(url: URL(fileURLWithPath: fleet.credentialsFile)).load()
            guard let signIn else { throw FleetReportError("no sign-in in \(fleet.credentialsFile); run signin first") }
            auth = fleet.oauth.refreshingAuth(credentials: signIn, refreshMargin: .zero)
            cache = ResponseCache()
            limiter = TokenBucketRateLimiter(.basecamp)
        }
    }

    /// The account's one budget, which every API request of a coordinated fleet takes its permit
    /// from, the sign-in's included.
    ///
    /// Basecamp's 50 per 10 s kept as 5 per second: a 10 s budget is granted in one burst that a
    /// loaded machine sends over seconds, and the server, counting arrivals, then sees the next
    /// burst's early requests in the same window (429s). Batches of one spread the permits evenly
    /// between the workers.
    static func sharedLimiter(_ database: PostgresDatabase) -> PostgresRateLimiter {
        PostgresRateLimiter(database: database, limit: RequestRate(5, per: .seconds(1)), batchSize: 1)
    }
}
