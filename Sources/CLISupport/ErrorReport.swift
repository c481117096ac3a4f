public import HTTPCore

/// A failure as a command reports it: the JSON object printed under `--json`, and the fields of
/// the human message.
///
/// The JSON form always has exactly these keys, `null` when unknown:
///
/// ```json
/// {"code":"api_error","exitCode":7,"hint":null,"httpStatus":500,"message":"Internal Server Error","requestId":"abc","retryable":true}
/// ```
public struct ErrorReport: Sendable, Hashable, Codable {
    /// ``HTTPCore/APIError/Code``'s raw value (`usage` also for a bad command line), or one of
    /// ``ExitPolicy``'s own: `configuration`, `output_failed`, `internal`, `cancelled`.
    public var code: String
    /// A sentence for people.
    public var message: String
    /// What to do about it, when known.
    public var hint: String?
    /// The HTTP status, when a response arrived.
    public var httpStatus: Int?
    /// The server's request id, when it sent one.
    public var requestId: String?
    /// Whether running the same command again may succeed.
    public var retryable: Bool
    /// The process's exit code.
    public var exitCode: Int32

    /// Creates a report.
    public init(
        code: String,
        message: String,
        hint: String? = nil,
        httpStatus: Int? = nil,
        requestId: String? = nil,
        retryable: Bool = false,
        exitCode: Int32
    ) {
        self.code = code
        self.message = message
        self.hint = hint
        self.httpStatus = httpStatus
        self.requestId = requestId
        self.retryable = retryable
        self.exitCode = exitCode
    }

    /// The report for an ``HTTPCore/APIError``, exiting with its ``HTTPCore/APIError/exitCode``.
    public init(_ error: APIError) {
        var hint = error.hint
        switch error.code {
        case .network where hint == nil:
            hint = "Check the base URL and that the server is reachable; it is safe to try again."
        case .rateLimit:
            // The SDK's own hint may name client settings that a command line cannot change.
            if let wait = error.details.retryAfter {
                hint = "The server asked to wait \(wait.components.seconds) s: run the command again after that."
            } else {
                hint = "The server is limiting requests: wait a minute, then run the command again."
            }
        default:
            break
        }
        self.init(
            code: error.code.rawValue,
            message: error.message,
            hint: hint,
            httpStatus: error.httpStatus,
            requestId: error.requestID,
            retryable: error.isRetryable,
            exitCode: error.exitCode
        )
    }

    private enum CodingKeys: String, CodingKey {
        case code, message, hint, httpStatus, requestId, retryable, exitCode
    }

    /// Encodes every key, writing `null` for missing values so the object's shape never varies.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(message, forKey: .message)
        try container.encode(hint, forKey: .hint)
        try container.encode(httpStatus, forKey: .httpStatus)
        try container.encode(requestId, forKey: .requestId)
        try container.encode(retryable, forKey: .retryable)
        try container.encode(exitCode, forKey: .exitCode)
    }

    /// The human form, for stderr:
    ///
    /// ```
    /// error: Internal Server Error (HTTP 500, request abc)
    /// hint: Try again later.
    /// ```
    public var humanText: String {
        var facts: [String] = []
        if let httpStatus { facts.append("HTTP \(httpStatus)") }
        if let requestId { facts.append("request \(requestId)") }
        var text = "error: \(message)"
        if !facts.isEmpty { text += " (\(facts.joined(separator: ", ")))" }
        if let hint { text += "\nhint: \(hint)" }
        return text
    }
}
