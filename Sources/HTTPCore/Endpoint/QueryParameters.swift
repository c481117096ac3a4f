import Foundation

/// One query or form value: text, a number, a Boolean, a date or a list of those.
///
/// Encoding is predictable on every platform: Booleans are `true`/`false`, dates are ISO 8601
/// in UTC with whole seconds, and a list repeats its name once per element (`tag=a&tag=b`).
public enum QueryValue: Sendable, Hashable {
    /// Sent as is, percent-encoded.
    case string(String)
    /// A whole number.
    case integer(Int)
    /// A number, in Swift's shortest round-tripping form.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// An instant, as `2024-05-01T10:00:00Z`.
    case date(Date)
    /// Repeated parameters, one per element, in order.
    case list([QueryValue])

    var encodedStrings: [String] {
        switch self {
        case .string(let value): return [value]
        case .integer(let value): return [String(value)]
        case .number(let value): return [String(value)]
        case .bool(let value): return [value ? "true" : "false"]
        case .date(let value): return [value.formatted(.utcTimestamp)]
        case .list(let values): return values.flatMap(\.encodedStrings)
        }
    }
}

/// A type that can stand as a query or form value.
public protocol QueryValueConvertible: Sendable {
    /// The value to encode.
    var queryValue: QueryValue { get }
}

extension String: QueryValueConvertible {
    /// `.string(self)`.
    public var queryValue: QueryValue { .string(self) }
}

extension Int: QueryValueConvertible {
    /// `.integer(self)`.
    public var queryValue: QueryValue { .integer(self) }
}

extension Int64: QueryValueConvertible {
    /// `.integer`, or the decimal text when it does not fit in `Int`.
    public var queryValue: QueryValue { Int(exactly: self).map(QueryValue.integer) ?? .string(String(self)) }
}

extension Double: QueryValueConvertible {
    /// `.number(self)`.
    public var queryValue: QueryValue { .number(self) }
}

extension Bool: QueryValueConvertible {
    /// `.bool(self)`.
    public var queryValue: QueryValue { .bool(self) }
}

extension Date: QueryValueConvertible {
    /// `.date(self)`.
    public var queryValue: QueryValue { .date(self) }
}

extension QueryValue: QueryValueConvertible {
    /// Itself.
    public var queryValue: QueryValue { self }
}

extension Array: QueryValueConvertible where Element: QueryValueConvertible {
    /// `.list` of the elements.
    public var queryValue: QueryValue { .list(map(\.queryValue)) }
}

/// Ordered name–value pairs for a URL query or a form body; `nil` values are dropped.
///
/// ```swift
/// let query: QueryParameters = ["status": "active", "page": page, "ids": [1, 2], "since": nil]
/// ```
public struct QueryParameters: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// The pairs in the order given; a `nil` value means "leave this parameter out".
    public var items: [(name: String, value: QueryValue?)] {
        get { storage.map { ($0.name, $0.value) } }
        set { storage = newValue.map { Item(name: $0.name, value: $0.value) } }
    }

    private struct Item: Sendable, Hashable {
        var name: String
        var value: QueryValue?
    }

    private var storage: [Item]

    /// Creates parameters from pairs, keeping their order.
    public init(_ items: [(String, (any QueryValueConvertible)?)] = []) {
        storage = items.map { Item(name: $0.0, value: $0.1?.queryValue) }
    }

    /// Creates parameters from a literal, keeping its order.
    public init(dictionaryLiteral elements: (String, (any QueryValueConvertible)?)...) {
        self.init(elements)
    }

    /// Whether no parameter would be sent.
    public var isEmpty: Bool { !storage.contains { $0.value != nil } }

    /// Adds a parameter at the end (a `nil` value is ignored when encoding).
    public mutating func append(_ name: String, _ value: (any QueryValueConvertible)?) {
        storage.append(Item(name: name, value: value?.queryValue))
    }

    /// The first value sent under `name`, as encoded text.
    public subscript(name: String) -> String? {
        storage.first { $0.name == name && $0.value != nil }?.value?.encodedStrings.first
    }

    /// The pairs as they go on the wire, `nil`s dropped and lists expanded.
    public var encodedPairs: [(name: String, value: String)] {
        storage.flatMap { item -> [(name: String, value: String)] in
            guard let value = item.value else { return [] }
            return value.encodedStrings.map { (item.name, $0) }
        }
    }

    /// The query string without the leading `?`, every name and value percent-encoded
    /// (RFC 3986 unreserved characters only, so `+` is `%2B` and a space is `%20`).
    public func percentEncoded() -> String {
        // Most endpoints have no query; they should not pay for building the pairs.
        guard !storage.isEmpty else { return "" }
        return encodedPairs.map { "\(PercentEncoding.encode($0.name))=\(PercentEncoding.encode($0.value))" }
            .joined(separator: "&")
    }

    /// The `application/x-www-form-urlencoded` body text: like ``percentEncoded()`` but a
    /// space is written `+`, as HTML forms do.
    public func formEncoded() -> String {
        encodedPairs.map {
            "\(PercentEncoding.encode($0.name, spaceAsPlus: true))=\(PercentEncoding.encode($0.value, spaceAsPlus: true))"
        }
        .joined(separator: "&")
    }
}

/// Percent-encoding that leaves only RFC 3986 unreserved characters as they are.
package enum PercentEncoding {
    /// Encodes every byte of the UTF-8 form of `text` except `A–Z a–z 0–9 - . _ ~`; with
    /// `spaceAsPlus`, a space is `+` instead of `%20`.
    package static func encode(_ text: String, spaceAsPlus: Bool = false) -> String {
        // Most values (numbers, identifiers) need nothing encoded, and are checked without
        // Foundation's slower bridge.
        guard !text.utf8.allSatisfy(isUnreserved) else { return text }
        let encoded = text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
        // Only a space encodes to `%20`: a `%` itself becomes `%25`.
        return spaceAsPlus ? encoded.replacingOccurrences(of: "%20", with: "+") : encoded
    }

    /// Decodes one name or value of a query or form body: `+` is a space, then `%XX` escapes are
    /// undone (left as written when they are malformed).
    package static func decodeFormComponent(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// Encodes one path segment, so `a/b c` becomes `a%2Fb%20c`.
    package static func encodePathSegment(_ text: String) -> String {
        encode(text)
    }

    /// Letters, digits and `-._~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )
}
