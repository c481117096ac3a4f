import Foundation

/// A failure below HTTP: what a transport throws when no complete response arrived.
///
/// The client turns it into an ``APIError``: `network` when repeating is harmless,
/// `ambiguous` when a write may already have reached the server, `limit_exceeded` for an
/// oversized body, `usage` for a URL the transport cannot use.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The transport cannot form or parse the request's URL (a host it cannot address, a
        /// scheme it does not speak); nothing was sent, and sending it again cannot help.
        case invalidURL
        /// No connection was made (refused, DNS failure, unreachable); nothing was sent.
        case cannotConnect
        /// No response arrived within the timeout.
        case timedOut
        /// The connection closed or reset before a complete response arrived.
        case connectionLost
        /// The response body was larger than the limit.
        case bodyLimitExceeded(limit: Int)
        /// A redirect was refused by the redirect policy (for example https → http).
        case redirectRefused
        /// The response could not be understood as HTTP.
        case invalidResponse
        /// Anything else.
        case other
    }

    /// What went wrong.
    public var kind: Kind
    /// Whether the server may have received the request. `false` only when the transport knows
    /// nothing was sent, such as a refused connection.
    public var requestMayHaveBeenSent: Bool
    /// A short human-readable explanation, free of credentials.
    public var message: String
    /// The platform error behind this one.
    public var underlying: (any Error & Sendable)?

    /// Creates a transport error.
    public init(
        _ kind: Kind,
        requestMayHaveBeenSent: Bool,
        message: String,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.kind = kind
        self.requestMayHaveBeenSent = requestMayHaveBeenSent
        self.message = message
        self.underlying = underlying
    }

    /// The message.
    public var description: String { message }
}

extension TransportError {
    /// A failure to connect to `url`'s host, named with its port so the message says where the
    /// transport tried: `Could not connect to 127.0.0.1:8080 (the connection was refused).`
    package static func cannotConnect(
        to url: URL,
        _ reason: String,
        underlying: (any Error & Sendable)? = nil
    ) -> TransportError {
        TransportError(
            .cannotConnect,
            requestMayHaveBeenSent: false,
            message: "Could not connect to \(hostAndPort(of: url)) (\(reason)).",
            underlying: underlying
        )
    }

    /// A URL the transport cannot form a request for; `reason` says what it could not do.
    package static func invalidURL(
        _ url: URL,
        _ reason: String,
        underlying: (any Error & Sendable)? = nil
    ) -> TransportError {
        TransportError(
            .invalidURL,
            requestMayHaveBeenSent: false,
            message: "Cannot send a request to \(hostAndPort(of: url)): \(reason).",
            underlying: underlying
        )
    }

    /// `host:port`, with the scheme's default port when the URL names none and an IPv6 host in
    /// brackets.
    package static func hostAndPort(of url: URL) -> String {
        let host = url.host ?? "an unknown host"
        let port = url.port ?? (url.scheme?.lowercased() == "http" ? 80 : 443)
        return (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host) + ":\(port)"
    }
}
