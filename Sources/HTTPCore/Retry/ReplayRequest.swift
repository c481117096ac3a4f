/// Thrown by a stage inside retry (such as auth after renewing the credentials) to have the
/// call's request sent through the pipeline again at once.
///
/// The replay counts as an attempt but does not wait and does not draw on the retry budget.
/// A call is replayed at most once: retry marks the context of the replay and every later
/// attempt with ``RequestContext/hasBeenReplayed``, and answers a second request to replay by
/// delivering its ``response``.
public struct ReplayRequest: Error, Sendable {
    /// What the caller gets if the request cannot be replayed.
    public var response: TransportResponse
    /// Why, for hooks and debugging.
    public var reason: String

    /// Creates a replay request.
    public init(response: TransportResponse, reason: String) {
        self.response = response
        self.reason = reason
    }
}
