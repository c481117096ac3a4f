/// Any JSON value.
///
/// Scripted steps carry arbitrary bodies that the sandbox replays verbatim, so the sandbox needs a
/// value type that round-trips whatever a test configured without knowing its shape.
@available(macOS 14, iOS 17, tvOS 17, *)
public enum SandboxJSON: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without a fractional part, kept apart from ``number(_:)`` so identifiers survive exactly.
    case integer(Int)
    /// A number with a fractional part.
    case number(Double)
    /// A string; as a whole scripted body it is sent as `text/plain` rather than as a JSON string.
    case string(String)
    /// An array.
    case array([SandboxJSON])
    /// An object.
    case object([String: SandboxJSON])
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension SandboxJSON: Codable {
    /// Decodes whichever JSON value is present, preferring exact integers over doubles.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([SandboxJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: SandboxJSON].self))
        }
    }

    /// Encodes the value as the JSON it stands for, without any wrapping.
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

@available(macOS 14, iOS 17, tvOS 17, *)
extension SandboxJSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// Lets tests write `nil` where a JSON `null` is meant.
    public init(nilLiteral: ()) {
        self = .null
    }

    /// Lets tests write `true`/`false` directly in a scripted body.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }

    /// Lets tests write integer literals directly in a scripted body.
    public init(integerLiteral value: Int) {
        self = .integer(value)
    }

    /// Lets tests write fractional literals directly in a scripted body.
    public init(floatLiteral value: Double) {
        self = .number(value)
    }

    /// Lets tests write string literals directly in a scripted body.
    public init(stringLiteral value: String) {
        self = .string(value)
    }

    /// Lets tests write array literals directly in a scripted body.
    public init(arrayLiteral elements: SandboxJSON...) {
        self = .array(elements)
    }

    /// Lets tests write dictionary literals directly in a scripted body; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, SandboxJSON)...) {
        self = .object(Dictionary(elements) { _, last in last })
    }
}
