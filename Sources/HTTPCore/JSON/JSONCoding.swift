import Foundation

/// How a client turns Swift values into JSON and back.
///
/// The defaults match most REST APIs written in Ruby, Python or Go: `snake_case` keys and
/// ISO 8601 timestamps with or without fractional seconds.
public struct JSONCoding: Sendable {
    /// How Swift property names map to JSON keys.
    public enum KeyStyle: Sendable {
        /// `dueOn` ⇄ `due_on`.
        case snakeCase
        /// Keys are used exactly as the Swift names (or `CodingKeys`) say.
        case useDefaultKeys
    }

    /// How `Date` values are written and read.
    public enum DateStyle: Sendable {
        /// ISO 8601; decoding accepts both `2024-05-01T10:00:00Z` and `…10:00:00.123Z`,
        /// encoding writes whole seconds.
        case iso8601
        /// ISO 8601 with fractional seconds when encoding; decoding accepts both forms.
        case iso8601WithFractionalSeconds
        /// A calendar date, `2024-05-01`, at midnight UTC.
        case dateOnly
        /// Seconds since 1970 as a JSON number.
        case unixSeconds
    }

    /// Key mapping; `.snakeCase` by default.
    public var keys: KeyStyle
    /// Date format; `.iso8601` by default.
    public var dates: DateStyle

    /// Creates a coding configuration.
    public init(keys: KeyStyle = .snakeCase, dates: DateStyle = .iso8601) {
        self.keys = keys
        self.dates = dates
    }

    /// A decoder configured with these strategies.
    public func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        if keys == .snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        switch dates {
        case .iso8601, .iso8601WithFractionalSeconds:
            decoder.dateDecodingStrategy = .custom(Self.decodeISO8601)
        case .dateOnly:
            decoder.dateDecodingStrategy = .custom(Self.decodeDateOnly)
        case .unixSeconds:
            decoder.dateDecodingStrategy = .secondsSince1970
        }
        return decoder
    }

    /// An encoder configured with these strategies; keys are sorted so bodies are reproducible.
    public func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if keys == .snakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
        switch dates {
        case .iso8601:
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(date.formatted(.utcTimestamp))
            }
        case .iso8601WithFractionalSeconds:
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(date.formatted(.utcTimestampWithFraction))
            }
        case .dateOnly:
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(date.formatted(.calendarDate()))
            }
        case .unixSeconds:
            encoder.dateEncodingStrategy = .secondsSince1970
        }
        return encoder
    }

    @Sendable
    private static func decodeISO8601(_ decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        if let date = Date(iso8601Timestamp: text) { return date }
        throw DecodingError.dataCorruptedError(
            in: container,
            debugDescription: "Expected an ISO 8601 date-time, found \"\(text.prefix(64))\""
        )
    }

    @Sendable
    private static func decodeDateOnly(_ decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        if let date = try? Date.ISO8601FormatStyle.calendarDate().parse(text) { return date }
        throw DecodingError.dataCorruptedError(
            in: container,
            debugDescription: "Expected a date like 2024-05-01, found \"\(text.prefix(64))\""
        )
    }
}
