import HTTPCore

/// Any JSON object event: its `id` and `kind` members, and the whole object as ``JSONValue``.
///
/// For senders without a typed model. The id is read as a 64-bit integer or a string; an id
/// that is fractional or of another type makes the delivery malformed.
public struct GenericWebhookEvent: WebhookEventPayload, Hashable {
    /// The `id` member.
    public var id: WebhookEventID?
    /// The `kind` member; empty when absent.
    public var kind: String
    /// The whole event as it arrived.
    public var body: JSONValue

    /// An event from its parts.
    public init(id: WebhookEventID?, kind: String, body: JSONValue) {
        self.id = id
        self.kind = kind
        self.body = body
    }

    private enum CodingKeys: String, CodingKey {
        case id
        case kind
    }

    /// Reads a JSON object; anything else is a decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(WebhookEventID.self, forKey: .id)
        kind = try container.decodeIfPresent(String.self, forKey: .kind) ?? ""
        body = try JSONValue(from: decoder)
    }

    /// ``id``.
    public var webhookEventID: WebhookEventID? { id }
    /// ``kind``.
    public var webhookEventKind: String { kind }
}
