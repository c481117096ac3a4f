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

    /// Relays `delivery` once.
    ///
    /// - Throws: ``ForwardFailure`` when the app answers non-2xx or cannot be reached.
    func relay(_ delivery: WebhookContext) async throws {
        var request = HTTPRequest(method: .post, url: url)
        request.headerFields = Self.relayedHeaders(delivery.headers)
        var options = TransportOptions(timeout: .seconds(10))
        options.isIdempotent = false
        let status: Int
        do {
            status = try await transport.send(request, body: delivery.body, options: options).response.status.code
        } catch let error as TransportError {
            throw ForwardFailure(url: url, problem: "could not be reached (\(error.message))")
        } catch let error where !(error is CancellationError) {
            throw ForwardFailure(url: url, problem: "could not be reached (\(error))")
        }
        guard (200..<300).contains(status) else { throw ForwardFailure(url: url, problem: "answered \(status)") }
    }
}

/// The app behind `--forward` did not accept an event: what it answered, or why it could not be
/// reached, in one clause.
struct ForwardFailure: Error, CustomStringConvertible {
    let url: URL
    let problem: String

    var description: String { "\(url.absoluteString) \(problem)" }
}
