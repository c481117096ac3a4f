import Foundation
import HTTPTypes

/// The auth stage, inside retry: authorises every attempt and, once per call, asks retry to
/// replay an auth failure (``TransportResponse/replay``) after the strategy renewed the
/// credentials.
struct AuthStage: Middleware {
    let strategy: any AuthStrategy
    let baseURL: URL
    let timeSource: any TimeSource
    let hooks: (any Hooks)?
    let defaultHeaders: HTTPFields
    let userAgent: String?
    let json: JSONCoding
    let transport: any HTTPTransport
    let options: TransportOptions
    let idempotencyKeyHeader: HTTPField.Name?

    init(
        strategy: any AuthStrategy,
        configuration: ClientConfiguration,
        baseURL: URL,
        hooks: (any Hooks)?,
        transport: any HTTPTransport,
        options: TransportOptions
    ) {
        self.strategy = strategy
        self.baseURL = baseURL
        self.timeSource = configuration.timeSource
        self.hooks = hooks
        self.defaultHeaders = configuration.defaultHeaders
        self.idempotencyKeyHeader = configuration.idempotencyKeyHeader
        self.userAgent = configuration.userAgent
        self.json = configuration.json
        self.transport = transport
        self.options = options
    }

    func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        let authContext = makeContext(for: context)
        let authorized = try await strategy.authorize(request, body: body, context: authContext)
        var result = try await next(authorized.request, authorized.body, context)
        // After the call's one replay, an auth failure is the caller's answer. So is one from
        // another origin, reached by a redirect that stripped the credentials: it rejected none.
        // Nor is one that answers the GET a 303 led to: the server had handled the write.
        guard !context.hasBeenReplayed, !result.fromCache, strategy.isAuthFailure(result),
            result.isFromOrigin(of: authorized.request),
            !result.isAfterRedirectToGET
                || RetryStage.isSafeToRepeat(
                    request,
                    isIdempotent: context.isIdempotent,
                    idempotencyKeyHeader: idempotencyKeyHeader
                )
        else { return result }
        switch try await strategy.recover(from: result, authorized: authorized, context: authContext) {
        case .deliver:
            break
        case .replay:
            result.replay = ReplayRequest(reason: "The credentials were renewed after an auth failure.")
        }
        return result
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
            deadline: context.deadline,
            defaultHeaders: defaultHeaders,
            userAgent: userAgent,
            json: json
        ) { request, body in
            // Straight to the transport: a refresh or login may outlive the call that started
            // it (others wait for it), so it cannot borrow that call's pipeline, and it must never
            // pass through retry or auth again.
            try await transport.send(request, body: body, options: options)
        }
    }
}
