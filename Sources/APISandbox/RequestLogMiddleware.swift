import HTTPCore
import Hummingbird
import Logging

/// Logs each request's method and URI, as Hummingbird's request log does, with the values of
/// secret query parameters replaced: a verbose sandbox's output is pasted into bug reports, and
/// a client pointed at it may be sending real credentials.
@available(macOS 14, iOS 17, tvOS 17, *)
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    let redactor: Redactor

    /// Hides OAuth's secret parameters, whatever the modules say, and each module's own.
    init(modules: [any SandboxModule]) {
        redactor = Redactor(secretQueryParameters: modules.flatMap(\.secretQueryParameters)).addingOAuthSecrets()
    }

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        context.logger.info(
            "Request",
            metadata: [
                "hb.request.path": .string(redactor.redact(urlString: request.uri.description)),
                "hb.request.method": .string(request.method.rawValue),
            ]
        )
        return try await next(request, context)
    }
}
