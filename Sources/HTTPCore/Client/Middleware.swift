import Foundation
public import HTTPTypes

/// The rest of the chain, as a middleware sees it: call it to pass the request on.
public typealias MiddlewareNext =
    @Sendable (_ request: HTTPRequest, _ body: Data?, _ context: RequestContext) async throws -> TransportResponse

/// Code that runs around every attempt: header injection, request signing, interception.
///
/// Middlewares run outermost first and may change the request, short-circuit with their own
/// response, or call `next` more than once (that is how retry works). A middleware that throws
/// should throw ``APIError`` or ``TransportError``; anything else is reported as `network`.
///
/// ```swift
/// struct TraceHeader: Middleware {
///     func intercept(
///         _ request: HTTPRequest, body: Data?, context: RequestContext, next: MiddlewareNext
///     ) async throws -> TransportResponse {
///         var request = request
///         request.headerFields[HTTPField.Name("X-Trace")!] = UUID().uuidString
///         return try await next(request, body, context)
///     }
/// }
/// ```
public protocol Middleware: Sendable {
    /// Handles one attempt, passing it on with `next`.
    func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse
}

/// What the chain knows about the call an attempt belongs to.
public struct RequestContext: Sendable {
    /// The endpoint's operation metadata.
    public var operation: OperationMetadata
    /// An id shared by every attempt and hook event of one call.
    public var callID: UInt64
    /// 1 for the first attempt; a retrying middleware increments it.
    public var attempt: Int
    /// Whether the request may be repeated without applying its effect twice.
    public var isIdempotent: Bool
    /// The redactor for anything this attempt shows.
    public var redactor: Redactor
    /// When the whole call must be over, on the client's monotonic clock; `nil` for no deadline.
    public var deadline: Duration?
    /// Counts the attempts that reached the transport, for the operation-end hook; `nil` when
    /// the client has no hooks, so a call without them allocates no counter.
    package var attemptCounter: AttemptCounter?

    /// Creates a context.
    public init(
        operation: OperationMetadata = OperationMetadata(),
        callID: UInt64 = 0,
        attempt: Int = 1,
        isIdempotent: Bool = true,
        redactor: Redactor = Redactor(),
        deadline: Duration? = nil
    ) {
        self.operation = operation
        self.callID = callID
        self.attempt = attempt
        self.isIdempotent = isIdempotent
        self.redactor = redactor
        self.deadline = deadline
    }
}

/// Counts the attempts of one call across middlewares that copy the context.
package final class AttemptCounter: Sendable {
    private let count = Locked(0)

    package init() {}

    package var value: Int { count.withLock { $0 } }

    package func increment() { count.withLock { $0 += 1 } }
}
