import Foundation

/// Any JSON value, for untyped responses, literal request bodies and error payloads.
///
/// Integers and fractional numbers are kept apart so that ids survive a round trip exactly:
/// `12345678901` decodes as `.integer`, `1.5` as `.number`.
///
/// ```swift
/// let body: JSONValue = ["name": "Launch", "tags": ["a", "b"], "due": nil]
/// let name = body["name"]?.stringValue
/// ```
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number that fits in `Int`.
    case integer(Int)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An ordered list of values.
    case array([JSONValue])
    /// An object; key order is not preserved.
    case object([String: JSONValue])
}

extension JSONValue {
    /// The member named `key` when this is an object, otherwise `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index` when this is an array and the index is in range, otherwise `nil`.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The string, when this is `.string`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, when this is `.integer` or a `.number` with no fraction.
    public var intValue: Int? {
        switch self {
        case .integer(let value): return value
        case .number(let value):
            guard value.rounded() == value, let exact = Int(exactly: value) else { return nil }
            return exact
        default: return nil
        }
    }

    /// The number as a `Double`, when this is `.integer` or `.number`.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    /// The Boolean, when this is `.bool`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is `.array`.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when this is `.object`.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `.null`.
    public var isNull: Bool { self == .null }
}

extension JSONValue: Codable {
    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Each failed attempt throws, which is costly, so the commonest kinds go first. The
        // order cannot change a result: JSON's kinds are disjoint under JSONDecoder (a string
        // never decodes as a number, and `1` never as a Bool).
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not a JSON value")
        }
    }

    /// Encodes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// Parses JSON text into a value.
    ///
    /// UTF-8 JSON is read in one pass; anything else `JSONDecoder` accepts (a trailing comma,
    /// UTF-16) is read as `JSONDecoder` reads it, so both give the same value.
    ///
    /// - Throws: `DecodingError` when the data is not JSON.
    public init(parsing data: Data) throws {
        if let value = JSONValueParser.value(of: data) {
            self = value
        } else {
            self = try JSONDecoder().decode(JSONValue.self, from: data)
        }
    }

    /// The value as compact JSON text with sorted keys, so equal values give equal bytes.
    ///
    /// Keys are ordered by their UTF-8 bytes and `/` is not escaped: the bytes `JSONEncoder`
    /// writes with `[.sortedKeys, .withoutEscapingSlashes]` on Linux, on every platform. A number
    /// JSON cannot express (infinite or NaN) is `null`; so is a value whose arrays and objects
    /// nest 512 deep, which `JSONEncoder` refuses too.
    public func encoded() -> Data {
        Data(JSONValueWriter.bytes(of: self) ?? Array("null".utf8))
    }
}

extension JSONValue: ExpressibleByNilLiteral {
    /// Creates `.null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// Creates `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// Creates `.integer`.
    public init(integerLiteral value: Int) { self = .integer(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// Creates `.number`.
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// Creates `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// Creates `.array`.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates `.object`; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text.
    public var description: String { String(decoding: encoded(), as: UTF8.self) }
}
