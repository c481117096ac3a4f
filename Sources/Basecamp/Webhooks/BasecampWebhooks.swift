import Foundation
import HTTPCoreWebhooks
import HTTPTypes

/// Basecamp's webhook conventions on top of HTTPCoreWebhooks: the signature header and a
/// receiver of typed ``WebhookEvent``s.
///
/// ```swift
/// import Basecamp
/// import HTTPCoreWebhooks
///
/// var receiver = BasecampWebhooks.receiver(secret: secret)
/// receiver.on("todo_*") { event, _ in
///     print(event.kind ?? .unknown(""), event.recording?.title ?? "")
/// }
/// ```
public enum BasecampWebhooks {
    /// `X-Basecamp-Signature`: the lowercase hex HMAC-SHA256 of the raw body.
    public static let signatureHeader = HTTPField.Name("X-Basecamp-Signature") ?? .contentType

    /// The signature Basecamp puts on deliveries for a webhook with `secret`.
    public static func signature(secret: String) -> WebhookSignature {
        WebhookSignature(secret: secret, headerName: signatureHeader)
    }

    /// A receiver of Basecamp events signed with `secret`.
    ///
    /// - Parameters:
    ///   - secret: the webhook's secret; an empty secret refuses every delivery.
    ///   - maxBodySize: the largest body accepted (1 MiB by default).
    ///   - dedupeWindow: how many handled event ids are remembered.
    public static func receiver(
        secret: String,
        maxBodySize: Int = 1 << 20,
        dedupeWindow: Int = 10_000
    ) -> WebhookReceiver<WebhookEvent> {
        var receiver = WebhookReceiver<WebhookEvent>(
            signature: signature(secret: secret),
            maxBodySize: maxBodySize,
            dedupeWindow: dedupeWindow
        )
        receiver.decode = { try BasecampWebhooks.decodeEvent($0) }
        return receiver
    }

    /// Reads one delivery's body as a ``WebhookEvent``.
    ///
    /// - Throws: `DecodingError` when the body is not a Basecamp event.
    public static func decodeEvent(_ body: Data) throws -> WebhookEvent {
        try JSONDecoder().decode(WebhookEvent.self, from: body)
    }
}

extension WebhookEvent: WebhookEventPayload {
    /// ``id`` as a 64-bit integer id.
    public var webhookEventID: WebhookEventID? { id.map(WebhookEventID.integer) }
    /// ``kind``'s wire text; empty when absent.
    public var webhookEventKind: String { kind?.rawValue ?? "" }
}
