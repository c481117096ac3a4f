/// A webhook as the sandbox keeps it: where to deliver, which recording types, the secret it
/// signs with, and its most recent deliveries.
struct WebhookRecord: Codable, Sendable, Equatable, ChangeableRecord {
    /// How many deliveries `recent_deliveries` keeps, newest first.
    static let recentDeliveryLimit = 25

    var id: Int
    var projectID: Int
    var payloadURL: String
    /// Recording types (`Todo`, `Comment`…); empty means every type.
    var types: [String]
    var active = true
    /// Signs every delivery; set by the sandbox-only `secret` member of the create body, or
    /// ``BasecampSandboxModule/defaultWebhookSecret``.
    var secret: String
    var createdAt: String
    var updatedAt: String
    var deliveries: [WebhookDeliveryRecord] = []

    /// Whether an event about a recording of `type` goes to this webhook.
    func accepts(type: String) -> Bool {
        active && (types.isEmpty || types.contains(type))
    }
}

/// One attempt to deliver an event, as `recent_deliveries` shows it.
struct WebhookDeliveryRecord: Codable, Sendable, Equatable {
    var id: Int
    var createdAt: String
    var requestHeaders: [String: String]
    /// The event's JSON, exactly as sent.
    var requestBody: String
    /// The receiver's status; `nil` when there was no answer (refused, timed out).
    var responseCode: Int?
    /// The status's reason, or what went wrong when there was no answer.
    var responseMessage: String
    var responseHeaders: [String: String]
}

extension AccountData {
    /// The account's webhooks (absent from state files written before webhooks were kept).
    var hooks: [WebhookRecord] {
        get { webhooks ?? [] }
        set { webhooks = newValue }
    }

    func webhook(_ id: Int) -> WebhookRecord? { hooks.first { $0.id == id } }
}
