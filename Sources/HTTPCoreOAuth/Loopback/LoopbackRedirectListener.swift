public import Foundation
public import HTTPCore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The browser step of a command-line sign-in: a tiny HTTP server on 127.0.0.1 that waits for
/// the authorization server to send the browser back (RFC 8252 §7.3).
///
/// ```swift
/// let listener = try LoopbackRedirectListener()
/// let request = try oauth.authorizationRequest(redirectURI: listener.redirectURI)
/// print("Open \(request.url)")
/// let callback = try await listener.waitForCallback(accept: request.isCallback)
/// let credentials = try await oauth.exchange(callback: callback, for: request)
/// ```
///
/// It answers `GET` on ``callbackPath`` only, from a browser that addressed it by its loopback
/// name (a `Host` of `127.0.0.1:PORT` or `localhost:PORT`, which keeps other sites' pages out
/// through DNS rebinding). A callback the `accept` check refuses (one whose `state` is not this
/// sign-in's) gets an error page and the wait goes on. The accepted one gets a short page
/// saying the user can return to the terminal, and ends the wait. Pages never repeat the code,
/// forbid caching and send no referrer. Uses POSIX sockets and Foundation only.
public final class LoopbackRedirectListener: Sendable {
    /// The port listened on: the one asked for, or the one the system picked.
    public let port: Int
    /// The path the callback must arrive on, e.g. `/callback`.
    public let callbackPath: String
    /// What the browser sees.
    public let pages: LoopbackPages

    private let descriptor: Int32
    private let isClosed = Locked(false)

    /// Starts listening on 127.0.0.1.
    ///
    /// - Parameters:
    ///   - port: The port; 0 (the default) lets the system pick a free one. Providers that
    ///     need the redirect URI registered exactly take a fixed one.
    ///   - callbackPath: The path of the redirect URI.
    ///   - pages: The pages shown in the browser.
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` when the port is taken or the path does not
    ///   start with `/`.
    public init(port: Int = 0, callbackPath: String = "/callback", pages: LoopbackPages = LoopbackPages()) throws {
        guard callbackPath.hasPrefix("/"), !callbackPath.contains("?"), !callbackPath.contains("#") else {
            throw APIError.usage("The callback path must start with / and carry no query or fragment.")
        }
        guard (0...65535).contains(port) else { throw APIError.usage("The loopback port must be between 0 and 65535.") }
        let (descriptor, bound) = try LoopbackSocket.openListener(port: port)
        self.descriptor = descriptor
        self.port = bound
        self.callbackPath = callbackPath
        self.pages = pages
    }

    deinit {
        close()
    }

    /// `http://127.0.0.1:PORT/PATH`: pass it as the authorization request's redirect URI.
    public var redirectURI: URL {
        var components = URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = port
        components.path = callbackPath
        return components.url ?? URL(fileURLWithPath: "/")
    }

    /// Stops listening; a wait in progress ends with `CancellationError` at its next check.
    /// Calling it again is harmless.
    public func close() {
        let wasOpen = isClosed.withLock { closed -> Bool in
            defer { closed = true }
            return !closed
        }
        if wasOpen { _ = Self.closeDescriptor(descriptor) }
    }

    /// Waits for the browser to arrive at the callback path, and returns the full callback URL
    /// (`http://127.0.0.1:PORT/callback?code=…&state=…`).
    ///
    /// - Parameters:
    ///   - timeout: How long to wait for the user (5 minutes), measured on `timeSource`.
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
        try await withTimeLimit(
            timeout,
            on: timeSource,
            timeout: {
                .authRequired(
                    APIError.Details(
                        message: "No sign-in arrived at \(self.redirectURI.absoluteString) within \(timeout).",
                        hint: "Run the sign-in again and finish it in the browser sooner."
                    )
                )
            },
            { try await self.serve(accept: accept) }
        )
    }

    /// One connection being read.
    private struct Connection {
        let descriptor: Int32
        var received: [UInt8] = []
        var idleRounds = 0
    }

    /// The largest request head read; a browser's is a few hundred bytes.
    private static let maxHeadSize = 16 * 1024
    /// How many idle polls a silent connection is kept (about 30 s), for browsers that open
    /// connections ahead of need.
    private static let maxIdleRounds = 2000

    private func serve(accept: @Sendable (URL) -> Bool) async throws -> URL {
        var connections: [Connection] = []
        defer { for connection in connections { _ = Self.closeDescriptor(connection.descriptor) } }
        while true {
            try Task.checkCancellation()
            guard !isClosed.withLock({ $0 }) else { throw CancellationError() }
            var progressed = false
            while let connection = LoopbackSocket.acceptConnection(descriptor) {
                connections.append(Connection(descriptor: connection))
                progressed = true
            }
            var index = 0
            while index < connections.count {
                switch LoopbackSocket.read(connections[index].descriptor, limit: Self.maxHeadSize) {
                case .closed:
                    _ = Self.closeDescriptor(connections.remove(at: index).descriptor)
                    progressed = true
                    continue
                case .data(let bytes) where bytes.isEmpty:
                    connections[index].idleRounds += 1
                case .data(let bytes):
                    connections[index].received += bytes
                    connections[index].idleRounds = 0
                    progressed = true
                }
                let connection = connections[index]
                if let outcome = answer(connection.received, accept: accept) {
                    LoopbackSocket.write(connection.descriptor, outcome.response)
                    _ = Self.closeDescriptor(connections.remove(at: index).descriptor)
                    if let callback = outcome.callback { return callback }
                    continue
                }
                if connection.idleRounds > Self.maxIdleRounds || connection.received.count > Self.maxHeadSize {
                    _ = Self.closeDescriptor(connections.remove(at: index).descriptor)
                    continue
                }
                index += 1
            }
            if !progressed { try await Task.sleep(nanoseconds: 15_000_000) }
        }
    }

    /// The response to a complete request head, and the callback when it was accepted; `nil`
    /// while the head is incomplete.
    private func answer(_ received: [UInt8], accept: (URL) -> Bool) -> (response: [UInt8], callback: URL?)? {
        guard let head = LoopbackRequestHead(received) else {
            return received.count > Self.maxHeadSize ? (pages.response(status: 431, page: pages.refused), nil) : nil
        }
        guard head.isValid else { return (pages.response(status: 400, page: pages.refused), nil) }
        guard head.host.map({ $0 == "127.0.0.1:\(port)" || $0 == "localhost:\(port)" }) == true else {
            return (pages.response(status: 421, page: pages.refused), nil)
        }
        guard head.path == callbackPath else { return (pages.response(status: 404, page: pages.notFound), nil) }
        guard head.method == "GET" else { return (pages.response(status: 405, page: pages.refused), nil) }
        guard let callback = URL(string: redirectURI.absoluteString + (head.query.map { "?" + $0 } ?? "")),
            accept(callback)
        else { return (pages.response(status: 400, page: pages.refused), nil) }
        let failed = URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems?.contains {
            $0.name == "error"
        }
        return (pages.response(status: 200, page: failed == true ? pages.failed : pages.signedIn), callback)
    }

    private static func closeDescriptor(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.close(descriptor)
        #elseif canImport(Glibc)
        Glibc.close(descriptor)
        #else
        Musl.close(descriptor)
        #endif
    }
}

/// The request line and `Host` of an HTTP/1.x request head.
struct LoopbackRequestHead {
    var method: String
    var path: String
    var query: String?
    var host: String?
    var isValid: Bool

    /// Parses `bytes` once they hold a complete head (up to the blank line); `nil` before.
    init?(_ bytes: [UInt8]) {
        let terminator: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4,
            let end = (0...(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == terminator })
        else { return nil }
        let text = String(decoding: bytes[..<end], as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ", omittingEmptySubsequences: false) ?? []
        method = requestLine.first.map(String.init) ?? ""
        let target = requestLine.count == 3 ? String(requestLine[1]) : ""
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = parts.first.map(String.init) ?? ""
        query = parts.count > 1 ? String(parts[1]) : nil
        isValid = requestLine.count == 3 && target.hasPrefix("/") && requestLine[2].hasPrefix("HTTP/1.")
        host = lines.dropFirst().first { $0.lowercased().hasPrefix("host:") }.map {
            $0.dropFirst(5).trimmingCharacters(in: .whitespaces).lowercased()
        }
    }
}

/// The pages a ``LoopbackRedirectListener`` shows in the browser.
public struct LoopbackPages: Sendable {
    /// After a successful callback.
    public var signedIn: String
    /// After a callback that reports an error (the user declined, the server failed).
    public var failed: String
    /// For a request that is not the sign-in's callback.
    public var refused: String
    /// For any other path.
    public var notFound: String

    /// Creates pages; each is a short line of text, shown as the body of a plain HTML page.
    public init(
        signedIn: String = "Signed in. You can close this window and return to the terminal.",
        failed: String = "The sign-in did not complete. Return to the terminal for details.",
        refused: String = "This request does not belong to the sign-in in progress.",
        notFound: String = "Not found."
    ) {
        self.signedIn = signedIn
        self.failed = failed
        self.refused = refused
        self.notFound = notFound
    }

    /// A complete HTTP/1.1 response carrying `page`, HTML-escaped.
    func response(status: Int, page: String) -> [UInt8] {
        let escaped = page.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        let body = Array(
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>Sign-in</title></head><body><p>\(escaped)</p></body></html>\n"
                .utf8
        )
        let reason =
            [200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 421: "Misdirected Request"][
                status
            ] ?? "Request Header Fields Too Large"
        let head =
            "HTTP/1.1 \(status) \(reason)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.count)\r\n"
            + "Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\n"
            + "Content-Security-Policy: default-src 'none'\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }
}
