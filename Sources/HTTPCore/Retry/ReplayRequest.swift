/// Thrown by a middleware inside retry (such as auth after refreshing a token) to have the
/// request sent again at once.
///
/// The replay counts as an attempt but does not wait and does not draw on the retry budget.
/// A call is replayed at most once; a second request to replay delivers ``response``.
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
