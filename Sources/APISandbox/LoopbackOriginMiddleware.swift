import Foundation
import HTTPCore
import HTTPTypes
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
        if Self.isFromAnotherSite(request.headers) {
            return try JSONResponse.make(
                ["error": "The sandbox's test routes answer only pages on this machine."],
                status: .forbidden
            )
        }
        return try await next(request, context)
    }

    /// Whether a browser sent the request for a page of another site: one whose `Origin` is not
    /// this machine, or, for a plain GET (an image, a link) that names no origin, one whose
    /// `Sec-Fetch-Site` says it came from elsewhere.
    static func isFromAnotherSite(_ headers: HTTPFields) -> Bool {
        if let origin = headers[.origin] { return !isLoopback(origin: origin) }
        guard let name = HTTPField.Name("Sec-Fetch-Site"), let site = headers[name] else { return false }
        return site == "cross-site" || site == "same-site"
    }

    static func isLoopback(origin: String) -> Bool {
        guard let host = URL(string: origin)?.host else { return false }
        return URLPolicy.isLoopback(host: host)
    }
}
