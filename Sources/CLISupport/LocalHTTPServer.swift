public import Foundation
public import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// A small HTTP server a command runs in the foreground (`basecamp webhooks listen`,
/// `monash calendar serve`): it binds one address, says where it listens, and stops gracefully
/// on SIGINT or SIGTERM, after which the command ends with exit 0.
///
/// ```swift
/// let router = Router()
/// router.get("hello") { _, _ in "hi" }
/// try await LocalHTTPServer(port: 0).run(router) { url in
///     context.note("Listening on \(url.absoluteString) (Ctrl-C to stop)")
/// }
/// ```
public struct LocalHTTPServer: Sendable {
    /// The address to bind, `127.0.0.1` unless the user asked for another.
    public var host: String
    /// The port to bind; 0 picks a free one, which the URL given to `onListening` carries.
    public var port: Int

    /// Creates a server description; nothing is bound until ``run(_:onListening:)``.
    public init(host: String = "127.0.0.1", port: Int) {
        self.host = host
        self.port = port
    }

    /// Serves `router` until SIGINT or SIGTERM, then shuts down gracefully and returns.
    ///
    /// - Parameter onListening: Called once the port is bound, with `http://host:port` (the real
    ///   port when ``port`` is 0). If it throws, the server stops and the error is rethrown.
    /// - Throws: ``ConfigurationError`` (exit 1, one sentence with a hint) when the port is in
    ///   use or the address cannot be bound; whatever `onListening` throws.
    public func run<Builder: HTTPResponderBuilder>(
        _ router: Builder,
        onListening: @escaping @Sendable (URL) async throws -> Void
    ) async throws where Builder.Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        var logger = Logger(label: "cli-local-http-server")
        logger.logLevel = .critical
        let (bound, boundContinuation) = AsyncStream.makeStream(of: Int.self)
        let port = port
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
        do {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask {
                    defer { boundContinuation.finish() }
                    try await group.run()
                }
                tasks.addTask {
                    for await port in bound {
                        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
                        guard let url = URL(string: "http://\(authority)") else { continue }
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
        } catch let error as IOError where error.errnoCode == EACCES {
            throw ConfigurationError(
                "Not allowed to listen on port \(port) on \(host).",
                hint: "Ports below 1024 need root: pick a higher one with --port."
            )
        } catch let error as IOError where error.errnoCode == EADDRNOTAVAIL {
            throw ConfigurationError(
                "Cannot listen on \(host): it is not an address of this computer.",
                hint: "Use --host 127.0.0.1 (this computer only) or one of this computer's addresses."
            )
        } catch is SocketAddressError {
            throw ConfigurationError(
                "Cannot listen on \(host): it is not an IP address or a name this computer resolves.",
                hint: "Use --host 127.0.0.1 (this computer only) or one of this computer's addresses."
            )
        }
    }
}
