import Foundation
import HTTPTypes

/// What a handler and a middleware know about the delivery besides the event: its id and kind,
/// the request's headers and raw body, and when it arrived.
public struct WebhookContext: Sendable {
    /// The event's id, when it has one.
    public var eventID: WebhookEventID?
    /// The event's kind.
    public var kind: String
    /// The delivery's headers.
    public var headers: HTTPFields
    /// The raw body, exactly as signed, for a handler that forwards or stores it.
    public var body: Data
    /// When the receiver got the delivery.
    public var receivedAt: Date

    /// A context from its parts.
    public init(eventID: WebhookEventID?, kind: String, headers: HTTPFields, body: Data, receivedAt: Date) {
        self.eventID = eventID
        self.kind = kind
        self.headers = headers
        self.body = body
        self.receivedAt = receivedAt
    }
}
