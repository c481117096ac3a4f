/// An event's id as the sender wrote it: a 64-bit integer or a string, never a floating-point
/// number, so two deliveries of one event always compare equal.
public enum WebhookEventID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A whole-number id such as `9007199254740993` (kept exactly, beyond a `Double`'s precision).
    case integer(Int64)
    /// A textual id.
    case string(String)

    /// Reads an integer or a string; a fractional number, a Boolean or anything else fails.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .string(text)
            return
        }
        do {
            self = .integer(try container.decode(Int64.self))
        } catch {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "An event id must be a whole number that fits in 64 bits, or a string."
            )
        }
    }

    /// Writes the id back as it arrived: a number or a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }

    /// The id's digits or text.
    public var description: String {
        switch self {
        case .integer(let value): return String(value)
        case .string(let value): return value
        }
    }
}
