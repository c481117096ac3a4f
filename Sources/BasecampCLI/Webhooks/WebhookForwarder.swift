import Foundation
import HTTPCore
import HTTPCoreWebhooks
import HTTPTypes
import HTTPTypesFoundation

/// Relays a verified delivery to a local app, body and signature unchanged, like
/// `stripe listen --forward-to`. A non-2xx answer or a refused connection throws, so the
/// receiver answers 500 and the sender retries.
struct WebhookForwarder: Sendable {
    let url: URL
    let transport: any HTTPTransport

    /// The headers relayed: the body's type and every signature or delivery header.
    static func relayedHeaders(_ headers: HTTPFields) -> HTTPFields {
        var relayed = HTTPFields()
        for field in headers {
            let name = field.name.canonicalName
            if name == "content-type" || name.hasPrefix("x-") || name == "user-agent" {
                relayed.append(field)
            }
        }
        if relayed[.contentType] == nil { relayed[.contentType] = "application/json" }
        return relayed
    }

    func relay(_ delivery: WebhookContext) async throws {
        var request = HTTPRequest(method: .post, url: url)
        request.headerFields = Self.relayedHeaders(delivery.headers)
        var options = TransportOptions(timeout: .seconds(10))
        options.isIdempotent = false
        let response = try await transport.send(request, body: delivery.body, options: options)
        guard response.response.status.kind == .successful else {
            throw ForwardFailure(status: response.response.status.code, url: url)
        }
    }
}

/// The app behind `--forward` did not accept an event.
struct ForwardFailure: Error, CustomStringConvertible {
    let status: Int
    let url: URL

    var description: String { "\(url.absoluteString) answered \(status)" }
}
