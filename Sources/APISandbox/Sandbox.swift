public import Foundation
import HTTPCore
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// A real HTTP/1.1 server on the loopback interface that plays the APIs our SDKs talk to.
///
/// Tests start one per test (or share one and call ``reset()``) and point a client at ``baseURL``;
/// because traffic crosses a real socket, the client's connection handling, redirects, timeouts
/// and retries are exercised exactly as in production. Several sandboxes can run in one process,
/// which gives cross-origin redirect tests a second origin.
///
/// ```swift
/// try await Sandbox.withRunning { sandbox in
///     let url = sandbox.baseURL.appending(path: "_test/status/503")
///     // ... exercise a client against `url` ...
/// }
/// ```
///
/// The built-in test surface lives under `/_test/`; see <doc:APISandbox> for every route.
@available(macOS 14, iOS 17, tvOS 17, *)
public final class Sandbox: Sendable {
    /// Where the server listens, for example `http://127.0.0.1:54321` or `http://[::1]:54321`, with
    /// no trailing slash.
    public let baseURL: URL
    /// The bound port; the real one when the sandbox was started on port 0.
    public let port: Int
    /// State shared with the routes: counters, scripts, writes and the fault plan.
    public let state: SandboxState
    /// Where the second origin listens (the same address, another port), when a module
    /// registered routes there; see ``SandboxModule/registerSecondOrigin(on:state:)``.
    public var secondOrigin: URL? { state.secondOrigin }

    private let serviceGroup: ServiceGroup
    private let modules: [any SandboxModule]
    private let runTask: Task<Void, Never>

    private init(
        host: String,
        port: Int,
        state: SandboxState,
        serviceGroup: ServiceGroup,
        runTask: Task<Void, Never>,
        modules: [any SandboxModule] = []
    ) throws {
        guard let url = URL(string: "http://\(Self.authority(host: host, port: port))") else {
            throw SandboxError.invalidBaseURL(port: port)
        }
        self.baseURL = url
        self.port = port
        self.state = state
        self.serviceGroup = serviceGroup
        self.runTask = runTask
        self.modules = modules
    }

    /// `host:port`, an IPv6 literal in brackets (RFC 3986 §3.2.2).
    private static func authority(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Starts a sandbox on 127.0.0.1 (or `host`) and returns once it accepts connections.
    ///
    /// - Parameters:
    ///   - port: The port to bind; 0 (the default) lets the system pick a free one, which keeps
    ///     parallel tests from colliding.
    ///   - host: The loopback address to bind: `127.0.0.1` (the default) or `::1`, for testing
    ///     a client over IPv6. Any other address is refused: the sandbox takes any credentials,
    ///     and its `/_test` routes reset and script it.
    ///   - configuration: Modules, fault plan and other settings.
    /// - Throws: ``SandboxError/notLoopback(host:)`` for a `host` other machines could reach,
    ///   ``SandboxError/portInUse(port:)`` if the port is taken, the bind error for any
    ///   other failure to listen, `CancellationError` if the calling task was cancelled first, or
    ///   ``SandboxError/stoppedBeforeListening``.
    public static func start(
        port: Int = 0,
        host: String = "127.0.0.1",
        configuration: SandboxConfiguration = .init()
    ) async throws -> Sandbox {
        // A name under `.localhost` need not resolve to loopback here, and a bracketed IPv6 literal does not bind.
        guard URLPolicy.isLoopback(host: host), !host.hasPrefix("["), !host.lowercased().hasSuffix(".localhost") else {
            throw SandboxError.notLoopback(host: host)
        }
        let state = SandboxState(configuration: configuration)
        var logger = Logger(label: "api-sandbox")
        logger.logLevel = configuration.logRequests ? .info : .warning

        let router = Router(context: SandboxRequestContext.self, options: .autoGenerateHeadEndpoints)
        if configuration.logRequests {
            router.add(middleware: RequestLogMiddleware(modules: configuration.modules))
        }
        // Middleware only wraps routes added after it, so counting and faults go first.
        router.add(middleware: FaultMiddleware(state: state))
        TestRoutes(state: state).register(on: router)
        for module in configuration.modules {
            module.register(on: router, state: state)
        }
        let secondRouter = Router(context: SandboxRequestContext.self, options: .autoGenerateHeadEndpoints)
        secondRouter.add(middleware: FaultMiddleware(state: state))
        // Every module is asked, so none is skipped because an earlier one added routes.
        let secondOriginUsed = configuration.modules.map { $0.registerSecondOrigin(on: secondRouter, state: state) }
            .contains(true)

        // Each listener reports its bound port, tagged with its place: 0 the API, 1 the second origin.
        let (boundPorts, boundPortContinuation) = AsyncThrowingStream.makeStream(of: (Int, Int).self)
        // Only a sandbox with a clock of its own rewrites the `Date` header Hummingbird writes.
        let server = HTTPServerBuilder.http1(
            configuration: HTTP1Channel.Configuration(
                additionalChannelHandlers: configuration.clock.map { [DateHeaderHandler(clock: $0)] } ?? []
            )
        )
        var services: [any Service] = [
            Application(
                router: router,
                server: server,
                configuration: .init(address: .hostname(host, port: port), serverName: nil),
                onServerRunning: { channel in boundPortContinuation.yield((0, channel.localAddress?.port ?? port)) },
                logger: logger
            )
        ]
        if secondOriginUsed {
            // Its port is the system's choice, so it cannot be taken; when the first listener
            // fails, its shutdown is the group's doing and not worth an error line.
            var quiet = logger
            if !configuration.logRequests { quiet.logLevel = .critical }
            services.append(
                Application(
                    router: secondRouter,
                    server: server,
                    configuration: .init(address: .hostname(host, port: 0), serverName: nil),
                    onServerRunning: { channel in boundPortContinuation.yield((1, channel.localAddress?.port ?? 0)) },
                    logger: quiet
                )
            )
        }
        var groupConfiguration = ServiceGroupConfiguration(services: services, logger: logger)
        // Graceful shutdown waits for in-flight requests; a test that left a long /_test/delay
        // running should not hold up stop() for minutes, so escalate to cancellation.
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(5)
        let serviceGroup = ServiceGroup(configuration: groupConfiguration)
        let runTask = Task {
            do {
                try await serviceGroup.run()
                boundPortContinuation.finish()
            } catch {
                boundPortContinuation.finish(throwing: error)
            }
        }

        do {
            var bound: [Int: Int] = [:]
            for try await (place, boundPort) in boundPorts {
                bound[place] = boundPort
                if bound.count == services.count { break }
            }
            guard let boundPort = bound[0], bound.count == services.count else {
                try Task.checkCancellation()
                throw SandboxError.stoppedBeforeListening
            }
            if let second = bound[1] {
                state.secondOrigin = URL(string: "http://\(authority(host: host, port: second))")
            }
            return try Sandbox(
                host: host,
                port: boundPort,
                state: state,
                serviceGroup: serviceGroup,
                runTask: runTask,
                modules: configuration.modules
            )
        } catch {
            await serviceGroup.triggerGracefulShutdown()
            await runTask.value
            if let failure = error as? IOError, failure.errnoCode == EADDRINUSE {
                throw SandboxError.portInUse(port: port)
            }
            throw error
        }
    }

    /// Starts a sandbox, runs `body` with it and stops it when `body` returns or throws, so a failing
    /// test never leaves a server listening.
    ///
    /// ```swift
    /// @Test func retriesA503() async throws {
    ///     try await Sandbox.withRunning { sandbox in
    ///         sandbox.script("flaky", [ScriptStep(status: 503), ScriptStep(status: 200, body: ["ok": true])])
    ///         let client = try Client(configuration: ClientConfiguration(baseURL: sandbox.baseURL))
    ///         _ = try await client.send(Endpoint<JSONValue>(.get, "_test/script/flaky"))
    ///         #expect(sandbox.counters().requestsByPath["/_test/script/flaky"] == 2)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - port: The port to bind; 0 (the default) lets the system pick a free one.
    ///   - configuration: Modules, fault plan and other settings.
    ///   - body: The test, given the running sandbox.
    /// - Returns: What `body` returns.
    /// - Throws: What ``start(port:configuration:)`` or `body` throws.
    public static func withRunning<Result>(
        port: Int = 0,
        configuration: SandboxConfiguration = .init(),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Sandbox) async throws -> Result
    ) async throws -> Result {
        let sandbox = try await start(port: port, configuration: configuration)
        do {
            let result = try await body(sandbox)
            await sandbox.stop()
            return result
        } catch {
            await sandbox.stop()
            throw error
        }
    }

    /// Releases every hold, stops accepting connections, lets in-flight requests finish (for up to
    /// five seconds), and returns once the server has shut down. Calling it again, or concurrently,
    /// is harmless.
    public func stop() async {
        for module in modules { await module.stopping() }
        state.releaseAllHolds()
        await serviceGroup.triggerGracefulShutdown()
        await runTask.value
    }

    /// Releases the hold `name`, so requests waiting at `/_test/hold/{name}` (or in a body held with
    /// `?hold={name}`) go on, and later ones pass straight through.
    ///
    /// ```swift
    /// // The server never answers, so only the client's own timeout can end this.
    /// await #expect(throws: APIError.self) {
    ///     try await client.send(Endpoint<JSONValue>(.get, "_test/hold/slow"))
    /// }
    /// sandbox.release("slow")
    /// ```
    public func release(_ name: String) {
        state.release(name)
    }

    /// Returns once `count` requests wait on the hold `name`: they have reached the server, which
    /// keeps their answers back until ``release(_:)``. Returns at once when they already wait, and
    /// when the sandbox has stopped.
    ///
    /// ```swift
    /// let call = Task { try await client.send(Endpoint<JSONValue>(.get, "_test/hold/slow")) }
    /// try await sandbox.waitUntilWaiting(onHold: "slow")   // the request is at the server
    /// call.cancel()                                        // so this cancels a request in flight
    /// ```
    ///
    /// A released hold keeps nobody waiting, so wait only on holds not yet released.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled while it waits.
    public func waitUntilWaiting(onHold name: String, count: Int = 1) async throws {
        try await state.waitUntilWaiting(onHold: name, count: count)
    }

    /// Installs or replaces the script answered at `/_test/script/{name}`; an empty list removes it.
    ///
    /// ```swift
    /// sandbox.script("flaky", [ScriptStep(status: 503), ScriptStep(status: 200, body: ["ok": true])])
    /// ```
    public func script(_ name: String, _ steps: [ScriptStep]) {
        state.script(name, steps)
    }

    /// A snapshot of the request and write counters, as served at `/_test/counters`.
    public func counters() -> SandboxCounters {
        state.counters()
    }

    /// Replaces the fault plan while the sandbox runs; ``reset()`` restores the configured one.
    public func setFaults(_ faults: FaultInjection) {
        state.setFaults(faults)
    }

    /// Clears counters, writes, scripts and ETag resources and restores the configured fault plan,
    /// as `POST /_test/reset` does.
    public func reset() {
        state.reset()
    }
}

/// Why a sandbox could not start.
@available(macOS 14, iOS 17, tvOS 17, *)
public enum SandboxError: Error, Sendable, Hashable {
    /// The server stopped before it reported a listening socket.
    case stoppedBeforeListening
    /// No URL could be formed for the bound port.
    case invalidBaseURL(port: Int)
    /// Another program is listening on the port asked for.
    case portInUse(port: Int)
    /// The address asked for is not a loopback one, so other machines could reach the sandbox.
    case notLoopback(host: String)
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension SandboxError: CustomStringConvertible {
    /// One sentence for people.
    public var description: String {
        switch self {
        case .stoppedBeforeListening: return "The sandbox stopped before it was listening."
        case .invalidBaseURL(let port): return "No URL can be formed for port \(port)."
        case .portInUse(let port): return "Port \(port) on 127.0.0.1 is already in use."
        case .notLoopback(let host):
            return "The sandbox listens on loopback only (127.0.0.1, ::1 or localhost), not \(host)."
        }
    }
}
