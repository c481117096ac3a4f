import APISandbox
import BasecampSandbox
import Foundation
import HTTPCore
import Hummingbird

/// What the sandbox saw of the fleet, counted on the server's side of every request: it is the
/// honest witness of 429s, refused refreshes, revalidations and expired tokens, whatever the
/// workers believe.
@available(macOS 14, iOS 17, tvOS 17, *)
final class FleetWitness: Sendable {
    private struct Tally {
        var requests = 0
        var throttled = 0
        var notModified = 0
        var invalidGrant = 0
        var first: Duration?
        var last: Duration?
        /// Access tokens seen on API requests and still good when last checked.
        var live: Set<String> = []
        /// Access tokens seen on API requests whose lifetime has since ended.
        var expired: Set<String> = []
    }

    let authorization: BasecampSandboxAuthorization
    private let apiPrefix: String
    private let tally = Locked(Tally())
    private let clock = SystemTimeSource()

    init(authorization: BasecampSandboxAuthorization, apiBasePath: String) {
        self.authorization = authorization
        self.apiPrefix = apiBasePath + "/"
    }

    /// Counts one answered request by its path and status.
    func record(path: String, status: Int, bearerToken: String?) {
        if path.hasSuffix("/authorization/token") || path == "/oauth/token" {
            if status == 400 { tally.withLock { $0.invalidGrant += 1 } }
            return
        }
        guard path.hasPrefix(apiPrefix) else { return }
        let now = clock.monotonicNow()
        // Checked on every request, so a token counts as expired once its lifetime ended while
        // the fleet was still sending, and the token in use when the fleet stops does not.
        let seen = tally.withLock { tally -> Set<String> in
            tally.requests += 1
            tally.first = tally.first ?? now
            tally.last = now
            if status == 429 { tally.throttled += 1 }
            if status == 304 { tally.notModified += 1 }
            if let bearerToken, !tally.expired.contains(bearerToken) { tally.live.insert(bearerToken) }
            return tally.live
        }
        let ended = seen.filter { authorization.status(of: $0) == .invalid }
        guard !ended.isEmpty else { return }
        tally.withLock { tally in
            tally.live.subtract(ended)
            tally.expired.formUnion(ended)
        }
    }

    /// The sandbox's line of the report, with the fleet's to-dos as `module` holds them.
    func counts(module: BasecampSandboxModule, contentPrefix: String) -> FleetCounts {
        var counts = FleetCounts(role: "sandbox")
        tally.withLock { tally in
            counts.requests = tally.requests
            counts.throttled = tally.throttled
            counts.notModified = tally.notModified
            counts.invalidGrant = tally.invalidGrant
            counts.expiries = tally.expired.count
            if let first = tally.first, let last = tally.last {
                let span = (last - first).components
                counts.seconds = Double(span.seconds) + Double(span.attoseconds) / 1e18
            }
        }
        counts.refreshes = authorization.refreshRequests
        if let limit = module.rateLimiter.limit {
            counts.limitRequests = limit.requests
            let window = limit.window.components
            counts.limitSeconds = Double(window.seconds) + Double(window.attoseconds) / 1e18
        }
        let todos = module.todos().filter { $0.title.hasPrefix(contentPrefix) }
        counts.storedTodos = todos.count
        counts.distinctTodos = Set(todos.map(\.title)).count
        counts.editedTodos = Set(todos.filter { $0.text == FleetWorkload.editMark }.map(\.title)).count
        return counts
    }
}

/// Counts every request the sandbox answers into a ``FleetWitness``.
@available(macOS 14, iOS 17, tvOS 17, *)
struct FleetWitnessMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    let witness: FleetWitness

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let response = try await next(request, context)
        witness.record(path: request.uri.path, status: response.status.code, bearerToken: request.bearerToken)
        return response
    }
}
