import CLISupport
import Foundation
import HTTPCoreWebhooks
import HTTPCoreWebhooksHummingbird
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

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
        var logger = Logger(label: "basecamp-webhooks-listen")
        logger.logLevel = .critical
        let router = Router()
        router.webhooks(RouterPath(path), receiver: receiver) { onResult($0) }
        let (bound, boundContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in boundContinuation.yield(channel.localAddress?.port ?? port) },
            logger: logger
        )
        let group = ServiceGroup(
            configuration: .init(services: [app], gracefulShutdownSignals: [.sigint, .sigterm], logger: logger)
        )
        let host = host
        let path = path
        do {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask {
                    defer { boundContinuation.finish() }
                    try await group.run()
                }
                tasks.addTask {
                    for await port in bound {
                        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
                        guard let url = URL(string: "http://\(authority)\(path)") else { continue }
                        do {
                            try await onListening(url)
                        } catch {
                            await group.triggerGracefulShutdown()
                            throw error
                        }
                        return
                    }
                }
                try await tasks.waitForAll()
            }
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw ConfigurationError(
                "Port \(port) on \(host) is already in use.",
                hint: "Pick another with --port, or --port 0 for any free one."
            )
        }
    }
}
