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
        } else {
            let signIn = await FileCredentialStore(url: URL(fileURLWithPath: fleet.credentialsFile)).load()
            guard let signIn else { throw FleetReportError("no sign-in in \(fleet.credentialsFile); run signin first") }
            auth = fleet.oauth.refreshingAuth(credentials: signIn, refreshMargin: .zero)
            cache = ResponseCache()
        }
        // Until the fleet-wide PostgresRateLimiter is on this branch, a coordinated worker keeps
        // to its share of the account's budget; an uncoordinated one takes the whole budget.
        let share = database == nil ? 1 : max(fleet.workers, 1)
        limiter = TokenBucketRateLimiter(RequestRate(max(RequestRate.basecamp.permits / share, 1), per: .seconds(10)))
    }
}
