import Foundation

// Decoding and encoding helpers the generated models call. The models do not depend on the
// decoder's key or date strategies: keys are spelled out in `CodingKeys`, timestamps are read
// and written here, so a model decodes the same with the SDK's client or a plain `JSONDecoder`.

extension KeyedDecodingContainer {
    /// Reads an ISO 8601 timestamp, with or without fractional seconds.
    ///
    /// With `allowingDateOnly`, a bare `YYYY-MM-DD` is accepted as midnight UTC: Basecamp sends
    /// all-day schedule entries that way (the `may-be-date-only` wire quirk).
    func decodeTimestamp(forKey key: Key, allowingDateOnly: Bool = false) throws -> Date {
        let text = try decode(String.self, forKey: key)
        if let date = WireFormat.timestamp(from: text, allowingDateOnly: allowingDateOnly) { return date }
        throw DecodingError.dataCorruptedError(
            forKey: key,
            in: self,
            debugDescription: "Expected an ISO 8601 timestamp, found \"\(text.prefix(64))\"."
        )
    }

    /// ``decodeTimestamp(forKey:allowingDateOnly:)`` for a key that may be missing or `null`.
    func decodeTimestampIfPresent(forKey key: Key, allowingDateOnly: Bool = false) throws -> Date? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeTimestamp(forKey: key, allowingDateOnly: allowingDateOnly)
    }

    /// Reads an integer that may arrive as a whole-valued float such as `1024.0` (the
    /// `may-be-float` wire quirk). A fractional value is rounded to the nearest integer.
    func decodeWholeNumber<Value: FixedWidthInteger & Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        if let value = try? decode(Value.self, forKey: key) { return value }
        let number = try decode(Double.self, forKey: key)
        guard number.isFinite, let value = Value(exactly: number.rounded()) else {
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: self,
                debugDescription: "Expected a whole number, found \(number)."
            )
        }
        return value
    }

    /// ``decodeWholeNumber(_:forKey:)`` for a key that may be missing or `null`.
    func decodeWholeNumberIfPresent<Value: FixedWidthInteger & Decodable>(
        _ type: Value.Type,
        forKey key: Key
    ) throws -> Value? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeWholeNumber(type, forKey: key)
    }

    /// Reads an integer that may arrive as a decimal string such as `"42"` (the
    /// `may-be-numeric-string` wire quirk).
    func decodeNumericString<Value: FixedWidthInteger & Decodable>(
        _ type: Value.Type,
        forKey key: Key
    ) throws -> Value {
        if let value = try? decode(Value.self, forKey: key) { return value }
        let text = try decode(String.self, forKey: key)
        guard let value = Value(text.trimmingCharacters(in: .whitespaces)) else {
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: self,
                debugDescription: "Expected an integer or a string of digits, found \"\(text.prefix(64))\"."
            )
        }
        return value
    }

    /// ``decodeNumericString(_:forKey:)`` for a key that may be missing or `null`.
    func decodeNumericStringIfPresent<Value: FixedWidthInteger & Decodable>(
        _ type: Value.Type,
        forKey key: Key
    ) throws -> Value? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeNumericString(type, forKey: key)
    }
}

extension KeyedEncodingContainer {
    /// Writes a timestamp as ISO 8601 in UTC with whole seconds, as Basecamp sends them.
    mutating func encodeTimestamp(_ date: Date, forKey key: Key) throws {
        try encode(WireFormat.string(from: date), forKey: key)
    }

    /// ``encodeTimestamp(_:forKey:)``, leaving the key out when the value is `nil`.
    mutating func encodeTimestampIfPresent(_ date: Date?, forKey key: Key) throws {
        guard let date else { return }
        try encodeTimestamp(date, forKey: key)
    }
}

/// The timestamp formats Basecamp uses on the wire (the sandbox reads requests with them too).
package enum WireFormat {
    static let wholeSeconds = Date.ISO8601FormatStyle(includingFractionalSeconds: false)
    static let fractionalSeconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// Parses `2024-05-01T10:00:00Z`, `2024-05-01T10:00:00.123-05:00` and, when allowed,
    /// `2024-05-01` (midnight UTC).
    package static func timestamp(from text: String, allowingDateOnly: Bool) -> Date? {
        if let date = try? wholeSeconds.parse(text) { return date }
        if let date = try? fractionalSeconds.parse(text) { return date }
        if allowingDateOnly, let day = CalendarDate(text) { return day.startOfDay(in: .gmt) }
        return nil
    }

    /// Formats `date` as `2024-05-01T10:00:00Z`.
    static func string(from date: Date) -> String {
        date.formatted(wholeSeconds)
    }
}
