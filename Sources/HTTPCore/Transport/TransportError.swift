/// A failure below HTTP: what a transport throws when no complete response arrived.
///
/// The client turns it into an ``APIError``: `network` when repeating is harmless,
/// `ambiguous` when a write may already have reached the server, `limit_exceeded` for an
/// oversized body.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
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
