import Foundation
public import HTTPTypes

/// A response that did not succeed, handed to an ``ErrorBodyDecoder``.
public struct ErrorResponse: Sendable {
    /// Status and headers.
    public var response: HTTPResponse
    /// The body, at most the client's error-body limit (1 MiB by default).
    public var body: Data
    /// The `X-Request-Id` header, if any.
    public var requestID: String?
    /// The request's time, for reading HTTP dates such as `Retry-After`.
    public var receivedAt: Date

    /// Creates an error response.
    public init(response: HTTPResponse, body: Data, requestID: String? = nil, receivedAt: Date = Date()) {
        self.response = response
        self.body = body
        self.requestID = requestID
        self.receivedAt = receivedAt
    }

    /// The error HTTPCore's own table gives this response (see ``APIError``).
    ///
    /// Custom decoders can start from it and adjust the message, hint or code.
    public var standardError: APIError { ErrorMapping.standardError(for: self) }
}

/// Turns an API's own error bodies into ``APIError``s.
///
/// ```swift
/// let decoder = ErrorBodyDecoder { response in
///     guard let body = try? JSONDecoder().decode(MyError.self, from: response.body) else { return nil }
///     var error = response.standardError
///     error.details.message = body.reason
///     return error
/// }
/// ```
///
/// Returning `nil` falls back to the standard mapping.
public struct ErrorBodyDecoder: Sendable {
    /// The decoding closure.
    public let decode: @Sendable (ErrorResponse) -> APIError?

    /// Creates a decoder.
    public init(_ decode: @escaping @Sendable (ErrorResponse) -> APIError?) {
        self.decode = decode
    }
}

/// HTTPCore's standard status-to-error table and body reading.
package enum ErrorMapping {
    package static func standardError(for error: ErrorResponse) -> APIError {
        let status = error.response.status.code
        let parsed = ErrorBodyFields(body: error.body)
        var details = APIError.Details(
            message: parsed.message ?? (parsed.payload == nil ? ErrorBodyFields.plainText(error.body) : nil)
                ?? statusText(status),
            hint: parsed.hint,
            httpStatus: status,
            requestID: error.requestID,
            fieldErrors: parsed.fieldErrors,
            payload: parsed.payload
        )
        let code: APIError.Code
        switch status {
        case 401: code = .authRequired
        case 403: code = .forbidden
        case 404: code = .notFound
        case 429:
            code = .rateLimit
            details.retryAfter = error.response.headerFields[.retryAfter].flatMap {
                RetryAfter.parse($0, now: error.receivedAt)
            }
        case 400, 422:
            code = .validation
            if !parsed.fieldErrors.isEmpty {
                let flattened = parsed.fieldErrors.map { "\($0.field): \($0.messages.joined(separator: "; "))" }
                    .joined(separator: ", ")
                details.message = parsed.message.map { "\($0) (\(flattened))" } ?? flattened
            }
        case 413:
            code = .limitExceeded
            details.hint = details.hint ?? "The server takes nothing this large: send a smaller body or file."
        case 507: code = .limitExceeded
        default: code = .apiError
        }
        return APIError(code, details)
    }

    package static func statusText(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 412: return "Precondition Failed"
        case 413: return "Content Too Large"
        case 415: return "Unsupported Media Type"
        case 422: return "Unprocessable Content"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 507: return "Insufficient Storage"
        default: return "HTTP \(status)"
        }
    }
}

/// The common fields of JSON error bodies: `error`, `message`, `error_description` and
/// field errors, in any of the usual shapes.
package struct ErrorBodyFields: Sendable {
    package var message: String?
    package var hint: String?
    package var fieldErrors: [APIError.FieldError] = []
    package var payload: JSONValue?

    /// A short plain-text body as one line, such as Basecamp's `OAuth token expired (old age)`;
    /// `nil` for an empty, long, binary, JSON or HTML body. Control characters are dropped so a
    /// server cannot steer the terminal the message is printed on.
    package static func plainText(_ body: Data) -> String? {
        guard !body.isEmpty, body.count <= 512, let text = String(data: body, encoding: .utf8) else { return nil }
        let printable = String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { CharacterSet.controlCharacters.contains($0) ? " " : $0 }
            )
        )
        let line = printable.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard let first = line.first, !"<{[".contains(first) else { return nil }
        return line
    }

    /// Reads `body`; anything that is not a JSON object leaves every field empty.
    package init(body: Data) {
        guard !body.isEmpty, let value = try? JSONValue(parsing: body) else { return }
        payload = value
        guard case .object(let members) = value else { return }
        message = Self.text(members["error"]) ?? Self.text(members["message"])
        hint = members["error_description"]?.stringValue
        if let errors = members["errors"] {
            fieldErrors = Self.fieldErrors(from: errors)
            if message == nil, fieldErrors.isEmpty, let list = errors.arrayValue {
                let texts = list.compactMap(\.stringValue)
                if !texts.isEmpty { message = texts.joined(separator: "; ") }
            }
        } else if message == nil {
            // Rails-style bodies put field errors at the top level: {"name": ["can't be blank"]}.
            fieldErrors = Self.fieldErrors(from: value)
        }
        fieldErrors.sort { $0.field < $1.field }
    }

    private static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text) where !text.isEmpty: return text
        case .object(let nested): return text(nested["message"])
        default: return nil
        }
    }

    private static func fieldErrors(from value: JSONValue) -> [APIError.FieldError] {
        switch value {
        case .object(let members):
            return members.compactMap { field, value in
                let messages: [String]
                switch value {
                case .string(let text): messages = [text]
                case .array(let items): messages = items.compactMap(\.stringValue)
                default: messages = []
                }
                return messages.isEmpty ? nil : APIError.FieldError(field: field, messages: messages)
            }
        case .array(let items):
            var grouped: [String: [String]] = [:]
            var order: [String] = []
            for item in items {
                guard let field = item["field"]?.stringValue ?? item["attribute"]?.stringValue,
                    let message = item["message"]?.stringValue
                else { continue }
                if grouped[field] == nil { order.append(field) }
                grouped[field, default: []].append(message)
            }
            return order.map { APIError.FieldError(field: $0, messages: grouped[$0] ?? []) }
        default:
            return []
        }
    }
}
