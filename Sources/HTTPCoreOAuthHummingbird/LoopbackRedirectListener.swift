public import Foundation
public import HTTPCore
public import HTTPCoreOAuth
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// The browser step of a command-line sign-in: a small HTTP server on the loopback interface
/// that waits for the authorization server to send the browser back (RFC 8252 §7.3), built on
/// Hummingbird and SwiftNIO.
///
/// ```swift
/// let listener = try await LoopbackRedirectListener.start()          // a free port
/// let request = try oauth.authorizationRequest(redirectURI: listener.redirectURI)
/// print("Open \(request.url)")
/// let callback = try await listener.waitForCallback(timeout: .seconds(300), accept: request.isCallback)
/// await listener.close()
/// let credentials = try await oauth.exchange(callback: callback, for: request)
/// ```
///
/// It listens on 127.0.0.1, or on `::1` where the machine has no IPv4 loopback (RFC 8252 asks
/// a client to use whichever is available), and answers as ``HTTPCoreOAuth/LoopbackRedirectRules``
/// say: `GET` on the callback path only, from a browser that addressed it by a loopback name. A
/// callback the `accept` check refuses (one whose `state` is not this sign-in's) gets an error
/// page and the wait goes on; the first one it accepts gets a short page saying the user can
/// return to the terminal, ends the wait, and is the only one ever taken. Each page closes its
/// connection; a connection that stays silent is closed after 30 seconds.
@available(macOS 14, iOS 17, tvOS 17, *)
public final class LoopbackRedirectListener: AuthorizationRedirectReceiver {
    /// How requests are answered: the bound host and port, the callback path, the pages.
    public let rules: LoopbackRedirectRules

    private let gate: CallbackGate
    private let serviceGroup: ServiceGroup
    private let runTask: Task<Void, Never>

    /// The port listened on: the one asked for, or the one the system picked.
    public var port: Int { rules.port }
    /// The path the callback must arrive on, e.g. `/callback`.
    public var callbackPath: String { rules.callbackPath }
    /// `http://127.0.0.1:PORT/PATH` (or `http://[::1]:PORT/PATH`): pass it as the authorization
    /// request's redirect URI.
    public var redirectURI: URL { rules.redirectURI }

    private init(
        rules: LoopbackRedirectRules,
        gate: CallbackGate,
        serviceGroup: ServiceGroup,
        runTask: Task<Void, Never>
    ) {
        self.rules = rules
        self.gate = gate
        self.serviceGroup = serviceGroup
        self.runTask = runTask
    }

    /// Starts listening and returns once connections are accepted.
    ///
    /// - Parameters:
    ///   - port: The port; 0 (the default) lets the system pick a free one. Providers that
    ///     need the redirect URI registered exactly take a fixed one.
    ///   - callbackPath: The path of the redirect URI.
    ///   - pages: The pages shown in the browser.
    ///   - host: The loopback interface; `nil` (the default) tries 127.0.0.1, then `::1`.
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` when the port is taken or the path does not
    ///   start with `/`.
    public static func start(
        port: Int = 0,
        callbackPath: String = "/callback",
        pages: LoopbackPages = LoopbackPages(),
        host: LoopbackHost? = nil
    ) async throws -> LoopbackRedirectListener {
        try LoopbackRedirectRules.check(port: port, callbackPath: callbackPath)
        do {
            do {
                return try await bind(host ?? .ipv4, port: port, callbackPath: callbackPath, pages: pages)
            } catch let failure as BindFailure where host == nil && !failure.portTaken {
                // No IPv4 loopback here: the IPv6 one will do.
                return try await bind(.ipv6, port: port, callbackPath: callbackPath, pages: pages)
            }
        } catch let failure as BindFailure {
            throw failure.apiError
        }
    }

    /// Waits for the browser to arrive at the callback path, and returns the full callback URL
    /// (`http://127.0.0.1:PORT/callback?code=…&state=…`).
    ///
    /// - Parameters:
    ///   - timeout: How long to wait for the user, by `timeSource`'s clock.
    ///   - timeSource: The clock for the timeout; tests pass a test clock.
    ///   - accept: Whether a callback belongs to the sign-in in progress; refused ones get an
    ///     error page and the wait goes on.
    /// - Throws: ``HTTPCore/APIError/authRequired(_:)`` when the timeout passes;
    ///   `CancellationError` when the task is cancelled or the listener closed.
    public func waitForCallback(
        timeout: Duration = .seconds(300),
        timeSource: any TimeSource = SystemTimeSource(),
        accept: @escaping @Sendable (URL) -> Bool = { _ in true }
    ) async throws -> URL {
        let redirectURI = redirectURI
        return try await withTimeLimit(
            timeout,
            on: timeSource,
            timeout: {
                .authRequired(
                    APIError.Details(
                        message: "No sign-in arrived at \(redirectURI.absoluteString) within \(timeout).",
                        hint: "Run the sign-in again and finish it in the browser sooner."
                    )
                )
            },
            { [gate] in try await gate.wait(accept: accept) }
        )
    }

    /// Stops listening: a wait in progress ends with `CancellationError`, a page being sent is
    /// finished (for up to two seconds), and the port is released when this returns. Calling it
    /// again is harmless.
    public func close() async {
        gate.close()
        await serviceGroup.triggerGracefulShutdown()
        await runTask.value
    }

    /// Why binding failed: whether the port was taken (the other interface would not help).
    private struct BindFailure: Error {
        let portTaken: Bool
        let apiError: APIError
    }

    private static func bind(
        _ host: LoopbackHost,
        port: Int,
        callbackPath: String,
        pages: LoopbackPages
    ) async throws -> LoopbackRedirectListener {
        var logger = Logger(label: "loopback-redirect-listener")
        logger.logLevel = .critical
        let gate = CallbackGate()
        let (bound, boundContinuation) = AsyncThrowingStream.makeStream(of: Int.self)
        let responder = LoopbackResponder(host: host, callbackPath: callbackPath, pages: pages, gate: gate)
        var http = HTTP1Channel.Configuration(
            additionalChannelHandlers: [CloseAfterResponseHandler()],
            idleTimeout: .seconds(30)
        )
        // A browser's request head is a few hundred bytes.
        http.httpDecoder = .init(maxHeaderFieldSize: 16 * 1024, maxHeaderListSize: 16 * 1024, maxHeaderFieldCount: 100)
        let app = Application(
            responder: responder,
            server: .http1(configuration: http),
            configuration: .init(address: .hostname(host.address, port: port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? port
                responder.bound(to: port)
                boundContinuation.yield(port)
            },
            logger: logger
        )
        var configuration = ServiceGroupConfiguration(services: [app], logger: logger)
        configuration.maximumGracefulShutdownDuration = .seconds(2)
        let serviceGroup = ServiceGroup(configuration: configuration)
        let runTask = Task {
            do {
                try await serviceGroup.run()
                boundContinuation.finish()
            } catch {
                boundContinuation.finish(throwing: error)
            }
        }
        do {
            var ports = bound.makeAsyncIterator()
            guard let boundPort = try await ports.next() else {
                try Task.checkCancellation()
                throw failure(host, port: port, taken: false)
            }
            let rules = try LoopbackRedirectRules(host: host, port: boundPort, callbackPath: callbackPath, pages: pages)
            return LoopbackRedirectListener(rules: rules, gate: gate, serviceGroup: serviceGroup, runTask: runTask)
        } catch {
            await serviceGroup.triggerGracefulShutdown()
            await runTask.value
            if error is CancellationError { throw error }
            throw failure(host, port: port, taken: (error as? IOError)?.errnoCode == EADDRINUSE)
        }
    }

    private static func failure(_ host: LoopbackHost, port: Int, taken: Bool) -> BindFailure {
        let which = port == 0 ? "A free port on \(host.address)" : "Port \(port) on \(host.address)"
        let what = taken ? "is taken" : "cannot be used"
        return BindFailure(
            portTaken: taken,
            apiError: .usage("\(which) \(what).", hint: "Choose another port, or let the system pick one (0).")
        )
    }
}
