import Foundation
import HTTPCore

/// One request as the Markbook sandbox sees it, independent of the HTTP server, so tests can
/// also answer a scripted transport with the same logic.
public struct MarkbookSandboxRequest: Sendable {
    /// `GET` or `POST`.
    public var method: String
    /// The path below the API's base: `""` for actions, `authenticate.lc`, `post.lc`, or
    /// `backups/<file>`.
    public var path: String
    /// Query parameters, decoded, in order.
    public var query: [Parameter]
    /// Form fields of an `application/x-www-form-urlencoded` body, decoded, in order.
    public var form: [Parameter]
    /// The API's address as the client used it, repeated in each answer's `api`.
    public var apiAddress: String

    /// One name and value.
    public struct Parameter: Sendable, Hashable {
        /// The name.
        public var name: String
        /// The value.
        public var value: String

        /// Creates a parameter.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Creates a request from decoded parts.
    public init(method: String, path: String, query: [Parameter], form: [Parameter] = [], apiAddress: String) {
        self.method = method
        self.path = path
        self.query = query
        self.form = form
        self.apiAddress = apiAddress
    }

    /// Creates a request from a raw query string and body, decoding both as
    /// `application/x-www-form-urlencoded` (`+` is a space).
    public init(method: String, path: String, rawQuery: String?, body: [UInt8], apiAddress: String) {
        self.init(
            method: method,
            path: path,
            query: Self.decodeForm(rawQuery ?? ""),
            form: Self.decodeForm(String(decoding: body, as: UTF8.self)),
            apiAddress: apiAddress
        )
    }

    /// Decodes `a=1&b=x+y` into parameters.
    public static func decodeForm(_ text: String) -> [Parameter] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (raw: Substring) -> String in
                let spaced = raw.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return Parameter(decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}

/// The sandbox's answer to one request.
public struct MarkbookSandboxResponse: Sendable, Hashable {
    /// The HTTP status: 200 for every API answer, as the real API does; 404 or 405 for paths
    /// and methods it does not serve.
    public var status: Int
    /// The `Content-Type`.
    public var contentType: String
    /// The body.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    /// The body as text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// Request parameters by name; the first value of a repeated name wins.
struct Parameters {
    private var values: [String: String] = [:]

    init(_ parameters: [MarkbookSandboxRequest.Parameter]) {
        for parameter in parameters where values[parameter.name] == nil {
            values[parameter.name] = parameter.value
        }
    }

    subscript(name: String) -> String? { values[name] }

    /// The value, or the `ERROR:missing <name>` status when absent or (unless allowed) empty.
    func require(_ name: String, allowEmpty: Bool = false) throws(StatusError) -> String {
        guard let value = values[name], allowEmpty || !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw StatusError("missing \(name)")
        }
        return value
    }

    /// A key parameter; absent is `missing <name>`, anything but a whole number is
    /// `invalid <entity>`.
    func key(_ name: String, entity: String) throws(StatusError) -> Int {
        let text = try require(name)
        guard let key = Int(text.trimmingCharacters(in: .whitespaces)) else { throw StatusError("invalid \(entity)") }
        return key
    }
}

/// An `ERROR:<reason>` answer.
struct StatusError: Error {
    var reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    var status: String { "ERROR:\(reason)" }
}

extension JSONValue {
    /// Text as the API reads it from a payload: a string, or a whole number as its digits.
    var wireText: String? {
        switch self {
        case .string(let text): return text
        case .integer(let number): return String(number)
        default: return nil
        }
    }

    /// A key or count as the API reads it from a payload: a whole number, or a string of digits.
    var wireInt: Int? {
        switch self {
        case .integer(let number): return number
        case .string(let text): return Int(text)
        default: return nil
        }
    }
}

/// How the sandbox writes numbers and dates.
enum SandboxFormat {
    /// A result or level that is a plain decimal; anything else stays text.
    static func number(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var digits = 0
        var seenPoint = false
        for (index, character) in trimmed.enumerated() {
            if index == 0, character == "+" || character == "-" { continue }
            if character == ".", !seenPoint {
                seenPoint = true
            } else if character.isASCII, character.isWholeNumber {
                digits += 1
            } else {
                return nil
            }
        }
        guard digits > 0, let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }

    /// Results are written with a point whatever the machine's locale.
    private static let posix = Locale(identifier: "en_US_POSIX")

    /// The raw result as the API sends it: six decimals for numbers (`67.500000`).
    static func raw(_ text: String) -> String {
        rounded(text, decimalPlaces: 6)
    }

    /// The result rounded half away from zero to the task's decimal places (`67.5` → `68`).
    ///
    /// The digits are rounded as written, never through a `Double`, where `1.005` is a little less
    /// than itself and would round to `1.00`; a result that rounds to zero is `0`, without a sign.
    static func rounded(_ text: String, decimalPlaces: Int) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard number(trimmed) != nil, var value = Decimal(string: trimmed, locale: posix) else { return text }
        let places = max(0, min(decimalPlaces, 6))
        var result = Decimal()
        NSDecimalRound(&result, &value, places, .plain)
        // Decimal's text drops trailing zeros, and the API writes every place (`67.50`).
        let parts = result.description.split(separator: ".", maxSplits: 1)
        let whole = parts.first.map(String.init) ?? "0"
        guard places > 0 else { return whole }
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        return whole + "." + fraction + String(repeating: "0", count: max(0, places - fraction.count))
    }

    /// `Fri, 14 Jun 2024 12:58:32 +1000`.
    static func rfc2822(_ date: Date, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }
}
