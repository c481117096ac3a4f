public import Foundation
public import HTTPCore
public import HTTPTypes

/// A ``HTTPCore/Middleware`` made of a closure, for a test that needs a stage of its own in the
/// pipeline (one that stamps, counts or answers) without declaring a type for it.
///
/// ```swift
/// configuration.middlewares = [
///     ClosureMiddleware { request, body, context, next in
///         var result = try await next(request, body, context)
///         if result.response.status.code == 409 { result.replay = ReplayRequest(reason: "conflict") }
///         return result
///     }
/// ]
/// ```
public struct ClosureMiddleware: Middleware {
    /// What the middleware does with each request: the arguments of
    /// ``HTTPCore/Middleware/intercept(_:body:context:next:)``, in order.
    public typealias Intercept =
        @Sendable (_ request: HTTPRequest, _ body: Data?, _ context: RequestContext, _ next: MiddlewareNext)
        async throws -> TransportResponse

    private let handle: Intercept

    /// Creates a middleware that runs `intercept` for each request.
    public init(_ intercept: @escaping Intercept) {
        self.handle = intercept
    }

    /// Runs the closure.
    public func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        try await handle(request, body, context, next)
    }
}
