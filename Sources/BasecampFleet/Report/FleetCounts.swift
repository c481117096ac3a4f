/// What one process of the fleet counted, written as one JSON line when it exits; the report
/// sums the lines of a run.
///
/// Each role fills its own members: the sandbox is the witness of what reached the API (requests,
/// 429s, refreshes, expiries, 304s, the stored to-dos), a worker of what it set out to do, a
/// receiver of which events its handlers ran for.
struct FleetCounts: Codable, Sendable, Equatable {
    /// `sandbox`, `worker` or `receiver`.
    var role: String

    // MARK: The sandbox's view

    /// API requests that reached the sandbox (the token endpoints aside), 429s included.
    var requests: Int?
    /// API requests answered `429`.
    var throttled: Int?
    /// API requests answered `304 Not Modified` (a cached page revalidated).
    var notModified: Int?
    /// Refresh grants the token endpoint received, granted or not.
    var refreshes: Int?
    /// Refresh grants refused (`400`, `invalid_grant` for a spent refresh token).
    var invalidGrant: Int?
    /// Access tokens the fleet used whose lifetime ended while the fleet was running.
    var expiries: Int?
    /// Seconds from the first API request to the last (the sign-in's included).
    var seconds: Double?
    /// The sandbox's rate limit: requests allowed per window, and the window in seconds.
    var limitRequests: Int?
    var limitSeconds: Double?
    /// Fleet to-dos in the sandbox at the end, and how many different ones (by content).
    var storedTodos: Int?
    var distinctTodos: Int?
    /// Fleet to-dos that carry their edit.
    var editedTodos: Int?

    // MARK: A worker's view

    /// Which worker.
    var worker: Int?
    /// List walks, creates and edits started, and how many of each succeeded.
    var walks: Int?
    var creates: Int?
    var createsDone: Int?
    var edits: Int?
    var editsDone: Int?
    /// Failed operations by error code (`rate_limit`, `auth_required`, …).
    var failures: [String: Int]?
    /// Whether the worker's sign-in was lost (a refused refresh) and it stopped.
    var signedOut: Bool?
    /// When its tasks started and when the last one ended, in seconds since 1970.
    var startedAt: Double?
    var endedAt: Double?

    // MARK: A receiver's view

    /// Which replica.
    var replica: Int?
    /// The event ids its handlers ran for, once per run.
    var handled: [Int]?
    /// Deliveries answered as already handled, or as in flight on another replica.
    var duplicatesAnswered: Int?
    var inFlightAnswered: Int?

    /// Counts for `role` with nothing counted yet.
    init(role: String) {
        self.role = role
    }

    enum CodingKeys: String, CodingKey {
        case role, requests, throttled, refreshes, expiries, seconds, worker, walks, creates, edits, failures
        case replica, handled
        case notModified = "not_modified"
        case invalidGrant = "invalid_grant"
        case limitRequests = "limit_requests"
        case limitSeconds = "limit_seconds"
        case storedTodos = "stored_todos"
        case distinctTodos = "distinct_todos"
        case editedTodos = "edited_todos"
        case createsDone = "creates_done"
        case editsDone = "edits_done"
        case signedOut = "signed_out"
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case duplicatesAnswered = "duplicates_answered"
        case inFlightAnswered = "in_flight_answered"
    }
}
