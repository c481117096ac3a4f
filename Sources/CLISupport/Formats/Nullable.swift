/// Encodes `nil` as `null` rather than leaving the key out, so every JSON object a command prints
/// has the same keys whether or not a value is there.
public struct Nullable<Wrapped: Encodable>: Encodable {
    /// The value, or `nil` for `null`.
    public var value: Wrapped?

    /// Wraps `value`.
    public init(_ value: Wrapped?) {
        self.value = value
    }

    /// Writes the value, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value {
            try container.encode(value)
        } else {
            try container.encodeNil()
        }
    }
}

extension Nullable: Sendable where Wrapped: Sendable {}

extension Nullable: Equatable where Wrapped: Equatable {}
