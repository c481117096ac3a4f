public import Foundation

/// Something an auth strategy did: a token refresh, a session login or renewal, or their
/// failures.
///
/// Delivered to ``Hooks/auth(_:)``. The payload never holds a credential: only what happened,
/// why, for which call, how long it took, until when the new credentials are good and, on
/// failure, the error (whose message is written without secrets).
public struct AuthEvent: Sendable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Tokens were refreshed.
        case refreshed
        /// A refresh failed.
        case refreshFailed = "refresh_failed"
        /// A session was opened (first use, or after the server rejected the old one).
        case loggedIn = "logged_in"
        /// A session was replaced before it expired.
        case renewed
        /// A login or renewal failed.
        case loginFailed = "login_failed"
        /// New credentials could not be saved to or removed from the credential store; they
        /// are still used in memory.
        case storeFailed = "store_failed"
    }

    /// Why the strategy acted.
    public enum Trigger: String, Sendable, Hashable, CaseIterable {
        /// There were no credentials or session yet.
        case initial
        /// The credentials were about to expire (within the renewal margin).
        case expiry
        /// The server rejected the credentials (a 401 or the API's own signal).
        case rejected
    }

    /// What happened.
    public var kind: Kind
    /// Why.
    public var trigger: Trigger
    /// The strategy's name, e.g. `RefreshingTokenAuth`.
    public var strategy: String
    /// The id of the call that needed the credentials.
    public var callID: UInt64
    /// That call's operation.
    public var operation: OperationMetadata
    /// How long the refresh or login took.
    public var duration: Duration
    /// Until when the new credentials are good, when known.
    public var validUntil: Date?
    /// The failure, for the failed kinds.
    public var error: APIError?

    /// Creates an event.
    public init(
        kind: Kind,
        trigger: Trigger,
        strategy: String,
        callID: UInt64 = 0,
        operation: OperationMetadata = OperationMetadata(),
        duration: Duration = .zero,
        validUntil: Date? = nil,
        error: APIError? = nil
    ) {
        self.kind = kind
        self.trigger = trigger
        self.strategy = strategy
        self.callID = callID
        self.operation = operation
        self.duration = duration
        self.validUntil = validUntil
        self.error = error
    }
}

extension AuthContext {
    /// An event for this context's call.
    package func event(
        _ kind: AuthEvent.Kind,
        _ trigger: AuthEvent.Trigger,
        strategy: String,
        started: Duration,
        validUntil: Date? = nil,
        error: APIError? = nil
    ) -> AuthEvent {
        AuthEvent(
            kind: kind,
            trigger: trigger,
            strategy: strategy,
            callID: callID,
            operation: operation,
            duration: timeSource.monotonicNow() - started,
            validUntil: validUntil,
            error: error
        )
    }
}
