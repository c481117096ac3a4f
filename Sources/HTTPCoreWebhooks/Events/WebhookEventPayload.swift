/// An event a ``WebhookReceiver`` can parse, deduplicate and route: it names its id and kind.
///
/// Conform a typed model to receive it directly (Basecamp's `WebhookEvent` does); use
/// ``GenericWebhookEvent`` for any JSON event with `id` and `kind` members.
public protocol WebhookEventPayload: Decodable, Sendable {
    /// The event's id, which a sender keeps across redeliveries; `nil` when it has none (such an
    /// event is never treated as a duplicate).
    var webhookEventID: WebhookEventID? { get }
    /// What happened (`todo_created`), which handlers' patterns are matched against.
    var webhookEventKind: String { get }
}
