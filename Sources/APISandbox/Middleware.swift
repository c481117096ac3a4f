import Hummingbird

/// Routes that inspect or steer the sandbox. They are neither counted nor faulted, so a test can
/// always read counters or reconfigure a script, whatever faults are in force.
enum ControlRoutes {
    static func contains(_ path: String) -> Bool {
        path == "/_test/counters" || path == "/_test/reset"
            || (path.hasPrefix("/_test/script/") && path.hasSuffix("/configure"))
            || (path.hasPrefix("/_test/hold/") && path.hasSuffix("/release"))
    }
}

/// Counts every request, then applies the sandbox's ``FaultInjection`` plan in front of every
/// route, including module routes; counting comes first so faulted attempts still count as
/// attempts that reached the server.
@available(macOS 14, iOS 17, tvOS 17, *)
struct FaultMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    let state: SandboxState

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard !ControlRoutes.contains(path) else { return try await next(request, context) }
        state.countRequest(path: path)
        guard let fault = state.nextFault(path: path) else {
            return try await next(request, context)
        }
        switch fault {
        case .serviceUnavailable:
            return try JSONResponse.make(
                ["error": "injected fault", "fault": "serviceUnavailable"],
                status: .serviceUnavailable
            )
        case .badGatewayAfterRunning:
            _ = try await next(request, context)
            return try JSONResponse.make(
                ["error": "injected fault", "fault": "badGatewayAfterRunning"],
                status: .badGateway
            )
        case .tooManyRequests(let retryAfterSeconds):
            var response = try JSONResponse.make(
                ["error": "injected fault", "fault": "tooManyRequests"],
                status: .tooManyRequests
            )
            response.headers[.retryAfter] = String(retryAfterSeconds)
            return response
        case .slowResponse(let milliseconds):
            try await Task.sleep(for: .milliseconds(max(0, milliseconds)))
            return try await next(request, context)
        case .connection(let connectionFault):
            return try await ConnectionBreaker.apply(connectionFault, request: request, context: context) {
                try await next(request, context)
            }
        }
    }
}
