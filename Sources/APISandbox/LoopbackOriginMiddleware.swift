import Foundation
import HTTPCore
import Hummingbird

/// Refuses a request to the test routes from a web page on another site: a browser names that
/// page's origin in `Origin`, and a page must not be able to reset or script a developer's sandbox
/// while its tests run. Clients that are not browsers send no `Origin` and are let through.
@available(macOS 14, iOS 17, tvOS 17, *)
struct LoopbackOriginMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let origin = request.headers[.origin], !Self.isLoopback(origin: origin) {
            return try JSONResponse.make(
                ["error": "The sandbox's test routes answer only pages on this machine."],
                status: .forbidden
            )
        }
        return try await next(request, context)
    }

    static func isLoopback(origin: String) -> Bool {
        guard let host = URL(string: origin)?.host else { return false }
        return URLPolicy.isLoopback(host: host)
    }
}
