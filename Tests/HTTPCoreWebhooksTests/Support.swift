import Foundation
import HTTPCore
import HTTPTypes

@testable import HTTPCoreWebhooks

/// Counts handler runs and records what they saw, across tasks.
actor Recorder {
    private(set) var entries: [String] = []

    func record(_ entry: String) { entries.append(entry) }

    func count(_ entry: String) -> Int { entries.filter { $0 == entry }.count }
}

struct HandlerFailure: Error, CustomStringConvertible {
    var description: String { "the database is down" }
}

/// Signed deliveries of small JSON events for a receiver keyed by `secret`.
struct Deliveries {
    var secret = "receiver-test-secret"

    var signature: WebhookSignature { WebhookSignature(secret: secret, headerName: .webhookSignature) }

    func body(id: String, kind: String, extra: String = "") -> Data {
        Data(#"{"id":\#(id),"kind":"\#(kind)"\#(extra)}"#.utf8)
    }

    func headers(for body: Data) -> HTTPFields {
        var fields = HTTPFields()
        fields[.webhookSignature] = signature.signature(for: body)
        return fields
    }

    func receiver(maxBodySize: Int = 1 << 20, dedupeWindow: Int = 10_000) -> WebhookReceiver<GenericWebhookEvent> {
        WebhookReceiver(signature: signature, maxBodySize: maxBodySize, dedupeWindow: dedupeWindow)
    }
}

extension WebhookReceiver {
    /// Delivers `body` signed as `deliveries` signs it.
    func deliver(_ body: Data, _ deliveries: Deliveries) async -> WebhookResult {
        await receive(body: body, headers: deliveries.headers(for: body))
    }
}
