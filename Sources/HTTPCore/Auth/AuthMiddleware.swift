import Foundation
import HTTPTypes

/// The auth stage, right inside retry: authorises every attempt and turns an auth failure into
/// one ``ReplayRequest`` per call after the strategy renewed the credentials.
struct AuthMiddleware: Middleware {
    let strategy: any AuthStrategy
    let baseURL: URL
    let timeSource: any TimeSource
    let hooks: (any Hooks)?
    let defaultHeaders: HTTPFields
    let userAgent: String?
    let json: JSONCoding
    let transport: any HTTPTransport
    let options: TransportOptions

    /// Calls whose replay has been asked for but not yet seen, with when it was asked.
    ///
    /// Retry replays the request it was given, so the replayed attempt is recognised by its
    /// call id; that attempt may not ask again, whatever it gets back. An entry whose replay
    /// never came (the call's deadline passed first) is dropped after ``staleReplayAge``.
    private let pendingReplays = Locked<[UInt64: Duration]>([:])
    private static let staleReplayAge = Duration.seconds(3600)

    init(
        strategy: any AuthStrategy,
        baseURL: URL,
        timeSource: any TimeSource,
        hooks: (any Hooks)?,
        defaultHeaders: HTTPFields,
        userAgent: String?,
        json: JSONCoding,
        transport: any HTTPTransport,
        options: TransportOptions
    ) {
        self.strategy = strategy
        self.baseURL = baseURL
        self.timeSource = timeSource
        self.hooks = hooks
        self.defaultHeaders = defaultHeaders
        self.userAgent = userAgent
        self.json = json
        self.transport = transport
        self.options = options
    }

    func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        let isReplay = pendingReplays.withLock { $0.removeValue(forKey: context.callID) != nil }
        let authContext = makeContext(for: context)
        let authorized = try await strategy.authorize(request, body: body, context: authContext)
        let result = try await next(authorized.request, authorized.body, context)
        guard !isReplay, !result.fromCache, strategy.isAuthFailure(result) else { return result }
        switch try await strategy.recover(from: result, authorized: authorized, context: authContext) {
        case .deliver:
            return result
        case .replay:
            let now = timeSource.monotonicNow()
            pendingReplays.withLock { pending in
                if pending.count >= 64 { pending = pending.filter { now - $0.value < Self.staleReplayAge } }
                pending[context.callID] = now
            }
            throw ReplayRequest(response: result, reason: "The credentials were renewed after an auth failure.")
        }
    }

    private func makeContext(for context: RequestContext) -> AuthContext {
        let transport = transport
        let options = options
        return AuthContext(
            baseURL: baseURL,
            timeSource: timeSource,
            redactor: context.redactor,
            hooks: hooks,
            callID: context.callID,
            operation: context.operation,
            defaultHeaders: defaultHeaders,
            userAgent: userAgent,
            json: json
        ) { request, body in
            // Straight to the transport: a refresh or login may outlive the call that started
            // it (others wait for it), so it cannot borrow that call's chain, and it must never
            // pass through retry or auth again.
            try await transport.send(request, body: body, options: options)
        }
    }
}
