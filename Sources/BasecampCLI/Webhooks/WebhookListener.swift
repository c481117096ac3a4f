import CLISupport
import Foundation
import HTTPCoreWebhooks
import HTTPCoreWebhooksHummingbird
import Hummingbird

/// The local HTTP server behind `webhooks listen`: one POST route, run until SIGINT or SIGTERM,
/// then shut down gracefully so the command exits 0.
struct WebhookListener {
    let host: String
    let port: Int
    let path: String

    /// Serves `receiver` at ``path``; `onListening` gets the delivery URL once the port is bound
    /// (the real port when ``port`` is 0). Returns after a signal stopped the server.
    ///
    /// - Throws: `ConfigurationError` when the address cannot be bound; whatever `onListening`
    ///   throws, after stopping the server.
    func run<Event: WebhookEventPayload>(
        receiver: WebhookReceiver<Event>,
        onResult: @escaping @Sendable (WebhookResult) -> Void,
        onListening: @escaping @Sendable (URL) async throws -> Void
    ) async throws {
        let router = Router()
        router.webhooks(RouterPath(path), receiver: receiver) { onResult($0) }
        let path = path
        try await LocalHTTPServer(host: host, port: port).run(router) { base in
            guard let url = URL(string: base.absoluteString + path) else { return }
            try await onListening(url)
        }
    }
}
