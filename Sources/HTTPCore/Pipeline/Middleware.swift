import Foundation
public import HTTPTypes

/// The rest of the chain, as a middleware sees it: call it to pass the request on.
public typealias MiddlewareNext =
    @Sendable (_ request: HTTPRequest, _ body: Data?, _ context: RequestContext) async throws -> TransportResponse

/// A stage of the request pipeline: code that runs around every attempt, such as header
/// injection, request signing or interception, or around every call.
///
/// The client's own stages (retry, auth, cache, redirects, request hooks) are middlewares too.
/// Yours run either once per attempt, between the cache and the redirect stage
/// (``ClientConfiguration/middlewares``), or once per call, outside everything else
/// (``ClientConfiguration/callMiddlewares``); <doc:RequestPipeline> shows the order. Middlewares
/// run outermost first and may change the request, short-circuit with their own response, or
/// call `next` more than once (that is how retry works). A middleware that throws should throw
/// ``APIError`` or ``TransportError``; anything else is reported as `network`.
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

/// What the pipeline knows about the call an attempt belongs to.
///
/// Each stage passes the context on to the next, so it is also how an outer stage tells the
/// inner ones about the attempt: retry sets ``attempt`` and ``hasBeenReplayed``, the cache sets
/// ``isCacheRevalidation``. The one thing that flows back out is ``attemptsMade``.
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
    /// Whether this call was already sent again at a stage's request (``TransportResponse/replay``);
    /// a call is replayed at most once, so a stage that sees this need not ask again.
    public internal(set) var hasBeenReplayed = false
    /// Whether the client's cache made this attempt conditional: a `304 Not Modified` answer to
    /// it is served from the cache.
    public internal(set) var isCacheRevalidation = false
    /// The files this call streams, if any: the transport then reads the request body from a
    /// file and writes a successful response body to one, and middlewares see neither body.
    public internal(set) var transfer: FileTransfer?
    /// The call's tally of attempts: a reference, so the count retry keeps inside the pipeline
    /// is seen by the stages outside it.
    private let attemptTally = AttemptCounter()

    /// How many attempts the call has made so far, a replay included. Retry counts them; a stage
    /// outside retry (a call middleware, the operation hooks) reads the total once `next` has
    /// returned or thrown.
    public var attemptsMade: Int { attemptTally.value }

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

extension RequestContext {
    /// Counts an attempt the call is about to make; retry calls it before each one.
    func countAttempt() {
        attemptTally.increment()
    }
}

/// Counts the attempts of one call across middlewares that copy the context.
final class AttemptCounter: Sendable {
    private let count = Locked(0)

    var value: Int { count.withLock { $0 } }

    func increment() { count.withLock { $0 += 1 } }
}
