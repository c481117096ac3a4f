import Foundation
import HTTPCore

extension Renderer {
    /// A webhook with its recent deliveries, newest first; never its secret.
    func webhook(_ hook: WebhookRecord) -> JSONValue {
        [
            "id": .integer(hook.id),
            "active": .bool(hook.active),
            "created_at": .string(hook.createdAt),
            "updated_at": .string(hook.updatedAt),
            "payload_url": .string(hook.payloadURL),
            "types": .array(hook.types.map(JSONValue.string)),
            "url": api("/webhooks/\(hook.id)"),
            "app_url": app("/buckets/\(hook.projectID)/webhooks/\(hook.id)"),
            "recent_deliveries": .array(hook.deliveries.map(delivery)),
        ]
    }

    private func delivery(_ delivery: WebhookDeliveryRecord) -> JSONValue {
        let body = (try? JSONValue(parsing: Data(delivery.requestBody.utf8))) ?? .string(delivery.requestBody)
        return [
            "id": .integer(delivery.id),
            "created_at": .string(delivery.createdAt),
            "request": ["headers": .object(delivery.requestHeaders.mapValues(JSONValue.string)), "body": body],
            "response": [
                "headers": .object(delivery.responseHeaders.mapValues(JSONValue.string)),
                "code": delivery.responseCode.map(JSONValue.integer) ?? .null,
                "message": .string(delivery.responseMessage),
            ],
        ]
    }
}
