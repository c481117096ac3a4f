/// A stage's request, carried by an answer in ``TransportResponse/replay``, that retry send the
/// call's request through the pipeline again at once instead of delivering that answer.
///
/// A stage inside retry returns it with the answer it can fix: auth does, after a 401 when its
/// strategy renewed the credentials. The replay counts as an attempt but does not wait and does
/// not draw on the retry budget. A call is replayed at most once: retry marks the context of the
/// replay and every later attempt with ``RequestContext/hasBeenReplayed``, and delivers an answer
/// that asks for a second replay as it is.
///
/// ```swift
/// var answer = try await next(request, body, context)
/// if answer.response.status.code == 409, !context.hasBeenReplayed, refreshedState() {
///     answer.replay = ReplayRequest(reason: "The state was refreshed after a conflict.")
/// }
/// return answer
/// ```
public struct ReplayRequest: Sendable, Hashable {
    /// Why, for debugging.
    public var reason: String

    /// Creates a replay request.
    public init(reason: String) {
        self.reason = reason
    }
}
