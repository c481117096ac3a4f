/// Which webhook events are being handled and which were handled: how a receiver drops
/// duplicates.
///
/// A receiver ``claim(_:)``s an event's id before its handlers run, then either
/// ``markHandled(_:)`` (every handler succeeded) or ``release(_:)`` (one failed, so a
/// redelivery runs them again). A ledger shared by several receivers (replicas of one web app)
/// lets only one of them handle an event. A claim whose receiver crashed must not block the
/// event forever: shared ledgers give claims a lease, after which another receiver may take the
/// event over. While the handlers run, the receiver ``renew(_:)``s the claim every
/// ``renewalInterval``, so a slow handler keeps its event. A receiver that cannot renew for
/// most of a lease (it crashed, or lost the ledger) loses the event to the next delivery; if it
/// is still running, the renewal that finds the claim lost cancels its handlers.
///
/// ``InMemoryDeliveryLedger`` (the receiver's default) serves one process; `PostgresDeliveryLedger`
/// (HTTPCorePostgres) serves a fleet.
public protocol WebhookDeliveryLedger: Sendable {
    /// Claims `id` for handling, unless it is handled or being handled.
    ///
    /// - Throws: When the ledger cannot be reached; the receiver then answers with a failure,
    ///   so the sender delivers again later.
    func claim(_ id: WebhookEventID) async throws -> WebhookClaimOutcome

    /// Records that the claimed event's handlers all succeeded; later deliveries of it are
    /// duplicates.
    func markHandled(_ claim: WebhookClaim) async throws

    /// Gives the claim up after a handler failed, so the next delivery of the event claims it
    /// again. A claim that another receiver has since taken over is left alone.
    func release(_ claim: WebhookClaim) async throws

    /// How often a receiver renews a claim while the event's handlers run: well inside the
    /// lease. `nil`, the default, for a ledger whose claims do not run out.
    var renewalInterval: Duration? { get }

    /// Extends the claim's lease from now.
    ///
    /// - Returns: `false` when the claim was lost (another receiver took the event over, or it
    ///   was handled); the receiver then cancels the event's handlers and answers the delivery
    ///   as failed. The default returns `true`.
    /// - Throws: When the ledger cannot be reached; the receiver tries again at the next interval.
    func renew(_ claim: WebhookClaim) async throws -> Bool
}

extension WebhookDeliveryLedger {
    /// Never: claims of this ledger do not run out.
    public var renewalInterval: Duration? { nil }

    /// Does nothing: claims of this ledger do not run out.
    public func renew(_ claim: WebhookClaim) async throws -> Bool { true }
}

/// An event id a receiver holds while it runs the event's handlers.
public struct WebhookClaim: Sendable, Hashable {
    /// The event claimed.
    public var eventID: WebhookEventID
    /// Tells this claim from a later one on the same event (after a lease expired).
    public var token: String

    /// Creates a claim.
    public init(eventID: WebhookEventID, token: String) {
        self.eventID = eventID
        self.token = token
    }
}

/// What ``WebhookDeliveryLedger/claim(_:)`` found.
public enum WebhookClaimOutcome: Sendable, Hashable {
    /// The caller holds the event now and must mark it handled or release it.
    case claimed(WebhookClaim)
    /// Another receiver is handling the event now; the delivery should be answered so that the
    /// sender tries again later.
    case inFlightElsewhere
    /// The event was handled already.
    case alreadyHandled
}
