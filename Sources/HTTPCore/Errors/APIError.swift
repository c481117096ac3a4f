import Foundation

/// The one error HTTPCore throws, so callers and scripts branch on a single type.
///
/// Every case carries ``Details``: a message for people, an optional hint, the HTTP status and
/// request id when there was a response, and the underlying cause. ``code`` is a stable string
/// for scripts and metric labels; ``exitCode`` is what the command-line tools exit with.
///
/// | code | from | exit | retryable |
/// |---|---|---|---|
/// | `usage` | bad configuration or arguments, found before sending | 64 | no |
/// | `not_found` | 404 | 2 | no |
/// | `auth_required` | 401 | 3 | no |
/// | `forbidden` | 403 | 4 | no |
/// | `rate_limit` | 429; a `Retry-After` longer than the policy's `maxRetryAfter`; the client's own rate limit before the deadline | 5 | yes |
/// | `network` | connection failure, timeout, DNS, reset | 6 | yes |
/// | `api_error` | 5xx but 507, other statuses but 413, undecodable bodies | 7 | 500/502/503/504 |
/// | `ambiguous` | the server may or may not have applied a write: the connection failed after sending it, or a 500, 502 or 504 answered it | 8 | no |
/// | `validation` | 400, 422 | 9 | no |
/// | `limit_exceeded` | 413, 507, response body over the limit | 10 | no |
///
/// `usage` exits 64, `EX_USAGE` from BSD's `sysexits.h`: the caller's input was refused before
/// anything was sent, which is what a bad command line is to a tool, so the tools and the SDKs
/// give it the same code. The tools' own outcomes (a closed pipe, a cancelled command) are in
/// CLISupport's `ExitPolicy`.
///
/// Cancellation is not an `APIError`: a cancelled call throws `CancellationError`.
public enum APIError: Error, Sendable {
    /// Bad configuration or arguments, found before any request was sent.
    case usage(Details)
    /// HTTP 404.
    case notFound(Details)
    /// HTTP 401, or credentials that are missing or can no longer be refreshed.
    case authRequired(Details)
    /// HTTP 403.
    case forbidden(Details)
    /// HTTP 429, or a call's deadline reached before the client's own rate limit let it go;
    /// ``Details/retryAfter`` holds the wait the server asked for, or until a permit would come.
    case rateLimit(Details)
    /// The connection failed, timed out or was reset.
    case network(Details)
    /// A server error, an unexpected status, or a success body that could not be decoded.
    case apiError(Details)
    /// A write's outcome is unknown: the connection failed after the request may have arrived, or
    /// a request that is not safe to repeat was answered 500, 502 or 504 (a server can fail after
    /// applying a write, and a gateway can answer after passing it on).
    case ambiguous(Details)
    /// HTTP 400 or 422; ``Details/fieldErrors`` lists per-field messages.
    case validation(Details)
    /// HTTP 507, or a response body larger than the client accepts.
    case limitExceeded(Details)

    /// The stable, machine-readable name of each case.
    public enum Code: String, Sendable, CaseIterable, Codable {
        /// Bad configuration or arguments.
        case usage
        /// Not found.
        case notFound = "not_found"
        /// Authentication required.
        case authRequired = "auth_required"
        /// Forbidden.
        case forbidden
        /// Rate limited.
        case rateLimit = "rate_limit"
        /// Network failure.
        case network
        /// Server or protocol error.
        case apiError = "api_error"
        /// Outcome unknown.
        case ambiguous
        /// Invalid input.
        case validation
        /// A limit was exceeded.
        case limitExceeded = "limit_exceeded"

        /// The process exit code the command-line tools use for this code.
        public var exitCode: Int32 {
            switch self {
            case .usage: return 64
            case .notFound: return 2
            case .authRequired: return 3
            case .forbidden: return 4
            case .rateLimit: return 5
            case .network: return 6
            case .apiError: return 7
            case .ambiguous: return 8
            case .validation: return 9
            case .limitExceeded: return 10
            }
        }
    }

    /// Creates the error for `code` with `details`.
    public init(_ code: Code, _ details: Details) {
        switch code {
        case .usage: self = .usage(details)
        case .notFound: self = .notFound(details)
        case .authRequired: self = .authRequired(details)
        case .forbidden: self = .forbidden(details)
        case .rateLimit: self = .rateLimit(details)
        case .network: self = .network(details)
        case .apiError: self = .apiError(details)
        case .ambiguous: self = .ambiguous(details)
        case .validation: self = .validation(details)
        case .limitExceeded: self = .limitExceeded(details)
        }
    }

    /// Which case this is, as a stable code.
    public var code: Code {
        switch self {
        case .usage: return .usage
        case .notFound: return .notFound
        case .authRequired: return .authRequired
        case .forbidden: return .forbidden
        case .rateLimit: return .rateLimit
        case .network: return .network
        case .apiError: return .apiError
        case .ambiguous: return .ambiguous
        case .validation: return .validation
        case .limitExceeded: return .limitExceeded
        }
    }

    /// Everything known about the failure.
    public var details: Details {
        get {
            switch self {
            case .usage(let details), .notFound(let details), .authRequired(let details),
                .forbidden(let details), .rateLimit(let details), .network(let details),
                .apiError(let details), .ambiguous(let details), .validation(let details),
                .limitExceeded(let details):
                return details
            }
        }
        set { self = APIError(code, newValue) }
    }

    /// The process exit code for this error.
    public var exitCode: Int32 { code.exitCode }
    /// A human-readable sentence, at most 500 characters.
    public var message: String { details.message }
    /// What the user might do about it, when known.
    public var hint: String? { details.hint }
    /// The HTTP status, when a response arrived.
    public var httpStatus: Int? { details.httpStatus }
    /// The server's `X-Request-Id`, when a response carried one.
    public var requestID: String? { details.requestID }
    /// The error that caused this one, if any.
    public var cause: (any Error & Sendable)? { details.cause }

    /// Whether trying the same call again may succeed: rate limits, network failures and
    /// 500, 502, 503 and 504.
    public var isRetryable: Bool {
        switch self {
        case .rateLimit, .network: return true
        case .apiError(let details):
            guard let status = details.httpStatus else { return false }
            return Self.transientServerStatuses.contains(status)
        default: return false
        }
    }

    /// The server errors that may pass if the call is made again: 500, 502, 503 and 504.
    static let transientServerStatuses: Set<Int> = [500, 502, 503, 504]

    /// The server errors that may come after a request took effect: a server can fail after
    /// applying a write, and a gateway can answer 502 or 504 after passing it on. A 503 says the
    /// server did not handle the request.
    static let outcomeUnknownStatuses: Set<Int> = [500, 502, 504]
}

extension APIError {
    /// Everything an ``APIError`` carries besides its code.
    public struct Details: Sendable {
        /// The longest message kept; longer server messages are cut here.
        public static let maxMessageLength = 500

        /// A human-readable sentence.
        public var message: String {
            didSet { message = Self.truncated(message) }
        }
        /// What the user might do about it.
        public var hint: String?
        /// The HTTP status, when a response arrived.
        public var httpStatus: Int?
        /// The server's `X-Request-Id`.
        public var requestID: String?
        /// For `rate_limit`: the wait the server asked for.
        public var retryAfter: Duration?
        /// For `validation`: per-field messages, sorted by field.
        public var fieldErrors: [FieldError]
        /// The error that caused this one.
        public var cause: (any Error & Sendable)?
        /// The decoded error body, when the API returned one.
        public var payload: JSONValue?
        /// An API-specific status that the SDK mapped (for example Markbook's `ERROR:...`).
        public var rawStatus: String?
        /// Whether an earlier attempt of this call may have been applied before what this error
        /// describes: the client repeated a write after a 500, 502 or 504, or after the connection
        /// failed once the request was sent, or ended the call with an error of its own (its
        /// deadline, a `Retry-After` too long to wait) after such an attempt. A refusal such as a
        /// 404 or 412 may then be the server's answer to that attempt's effect, not a sign the
        /// write never landed.
        public var earlierAttemptMayHaveBeenApplied = false
        /// What a list walk had collected when it stopped with this error; read it with
        /// ``APIError/partialList(of:)`` or ``APIError/partialResult(as:)``.
        var partialList: (any Sendable)?

        /// Creates details; the message is cut at ``maxMessageLength`` characters.
        public init(
            message: String,
            hint: String? = nil,
            httpStatus: Int? = nil,
            requestID: String? = nil,
            retryAfter: Duration? = nil,
            fieldErrors: [FieldError] = [],
            cause: (any Error & Sendable)? = nil,
            payload: JSONValue? = nil,
            rawStatus: String? = nil
        ) {
            self.message = Self.truncated(message)
            self.hint = hint
            self.httpStatus = httpStatus
            self.requestID = requestID
            self.retryAfter = retryAfter
            self.fieldErrors = fieldErrors
            self.cause = cause
            self.payload = payload
            self.rawStatus = rawStatus
        }

        static func truncated(_ text: String) -> String {
            guard text.count > maxMessageLength else { return text }
            return String(text.prefix(maxMessageLength - 1)) + "…"
        }
    }

    /// The messages a server gave for one field of the input.
    public struct FieldError: Sendable, Hashable, Codable {
        /// The field name as the API spells it.
        public var field: String
        /// Its messages, in the order given.
        public var messages: [String]

        /// Creates a field error.
        public init(field: String, messages: [String]) {
            self.field = field
            self.messages = messages
        }
    }
}

extension APIError {
    /// A `usage` error with a message and optional hint.
    public static func usage(_ message: String, hint: String? = nil) -> APIError {
        .usage(Details(message: message, hint: hint))
    }
}

extension APIError: CustomStringConvertible, LocalizedError {
    /// `code: message` plus status and request id when present; never includes credentials.
    public var description: String {
        var text = "\(code.rawValue): \(message)"
        if let status = httpStatus { text += " (HTTP \(status))" }
        if let requestID { text += " [request \(requestID)]" }
        return text
    }

    /// The message, for `localizedDescription`.
    public var errorDescription: String? { message }
}
