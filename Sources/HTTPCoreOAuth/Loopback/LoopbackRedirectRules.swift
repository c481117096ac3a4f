public import Foundation
import HTTPCore

/// The loopback interface a redirect listener binds (RFC 8252 §7.3: an IP literal, not
/// `localhost`).
public enum LoopbackHost: Sendable, Hashable {
    /// `127.0.0.1`.
    case ipv4
    /// `::1`, written `[::1]` in a URL.
    case ipv6

    /// The address to bind: `127.0.0.1` or `::1`.
    public var address: String {
        switch self {
        case .ipv4: "127.0.0.1"
        case .ipv6: "::1"
        }
    }

    /// The host as a URL writes it: `127.0.0.1` or `[::1]`.
    public var uriHost: String {
        switch self {
        case .ipv4: "127.0.0.1"
        case .ipv6: "[::1]"
        }
    }
}

/// How a loopback redirect listener answers each request, whatever server carries it
/// (RFC 8252 §7.3).
///
/// Only a `GET` on ``callbackPath`` is a callback, and only from a browser that addressed the
/// listener by a loopback name (a `Host` of `127.0.0.1:PORT`, `[::1]:PORT` or `localhost:PORT`,
/// which keeps other sites' pages out through DNS rebinding). Anything else gets a short error
/// page. Whether a callback belongs to the sign-in in progress (its `state`) is the waiter's to
/// say: ``answer(toCallback:accepted:)`` then gives the page. Pages never repeat the code.
public struct LoopbackRedirectRules: Sendable, Hashable {
    /// The interface the listener is bound to.
    public let host: LoopbackHost
    /// The bound port.
    public let port: Int
    /// The path the callback must arrive on, e.g. `/callback`.
    public let callbackPath: String
    /// What the browser sees.
    public let pages: LoopbackPages

    /// Checks the path (it must start with `/` and carry no query or fragment) and the port.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` for a bad path or port.
    public init(host: LoopbackHost, port: Int, callbackPath: String, pages: LoopbackPages) throws {
        try Self.check(port: port, callbackPath: callbackPath)
        self.host = host
        self.port = port
        self.callbackPath = callbackPath
        self.pages = pages
    }

    /// Throws ``HTTPCore/APIError/usage(_:)`` unless `callbackPath` starts with `/` and carries
    /// no query or fragment and `port` is between 0 and 65535: what a listener checks before it
    /// binds.
    public static func check(port: Int, callbackPath: String) throws {
        guard callbackPath.hasPrefix("/"), !callbackPath.contains("?"), !callbackPath.contains("#") else {
            throw APIError.usage("The callback path must start with / and carry no query or fragment.")
        }
        guard (0...65535).contains(port) else { throw APIError.usage("The loopback port must be between 0 and 65535.") }
    }

    /// `http://127.0.0.1:PORT/PATH` (or `http://[::1]:PORT/PATH`): the authorization request's
    /// redirect URI.
    public var redirectURI: URL {
        URL(string: "http://\(host.uriHost):\(port)\(callbackPath)") ?? URL(fileURLWithPath: "/")
    }

    /// What a request is to the listener.
    public enum Verdict: Sendable, Hashable {
        /// Not a callback: send this answer.
        case answer(LoopbackAnswer)
        /// A callback to offer the waiter: the full URL it arrived at.
        case callback(URL)
    }

    /// What a request is, from its method, its request target (`/callback?code=…`) and its
    /// `Host`.
    public func verdict(method: String, target: String, host authority: String?) -> Verdict {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? ""
        guard target.hasPrefix("/") else { return .answer(LoopbackAnswer(status: 400, text: pages.refused)) }
        let names = ["127.0.0.1:\(port)", "[::1]:\(port)", "localhost:\(port)"]
        guard let authority, names.contains(authority.lowercased()) else {
            return .answer(LoopbackAnswer(status: 421, text: pages.refused))
        }
        guard path == callbackPath else { return .answer(LoopbackAnswer(status: 404, text: pages.notFound)) }
        guard method == "GET" else { return .answer(LoopbackAnswer(status: 405, text: pages.refused)) }
        let query = parts.count > 1 ? "?" + parts[1] : ""
        guard let callback = URL(string: redirectURI.absoluteString + query) else {
            return .answer(LoopbackAnswer(status: 400, text: pages.refused))
        }
        return .callback(callback)
    }

    /// The page for a callback the waiter took (`accepted`) or refused: "signed in", or "did not
    /// complete" for a callback that reports an error; a refused one is a 400.
    public func answer(toCallback callback: URL, accepted: Bool) -> LoopbackAnswer {
        guard accepted else { return LoopbackAnswer(status: 400, text: pages.refused) }
        let failed = URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems?.contains {
            $0.name == "error"
        }
        return LoopbackAnswer(status: 200, text: failed == true ? pages.failed : pages.signedIn)
    }
}
