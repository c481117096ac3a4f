import Foundation
import HTTPCore

// Decoding and encoding helpers the generated models call. The models do not depend on the
// decoder's key or date strategies: keys are spelled out in `CodingKeys`, timestamps are read
// and written here, so a model decodes the same with the SDK's client or a plain `JSONDecoder`.

extension KeyedDecodingContainer {
    /// Reads an ISO 8601 timestamp, with or without fractional seconds.
    ///
    /// With `allowingDateOnly`, a bare `YYYY-MM-DD` is accepted as midnight UTC: Basecamp sends
    /// all-day schedule entries that way (the `may-be-date-only` wire quirk).
    func decodeTimestamp(forKey key: Key, allowingDateOnly: Bool = false) throws -> Date {
        try decode(String.self, forKey: key) {
            WireFormat.timestamp(from: $0, allowingDateOnly: allowingDateOnly)
        } otherwise: {
            "Expected an ISO 8601 timestamp, found \"\($0.prefix(64))\"."
        }
    }

    /// ``decodeTimestamp(forKey:allowingDateOnly:)`` for a key that may be missing or `null`.
    func decodeTimestampIfPresent(forKey key: Key, allowingDateOnly: Bool = false) throws -> Date? {
        try ifPresent(key) { try decodeTimestamp(forKey: $0, allowingDateOnly: allowingDateOnly) }
    }

    /// Reads an integer that may arrive as a whole-valued float such as `1024.0` (the
    /// `may-be-float` wire quirk). A fractional value is rounded to the nearest integer.
    func decodeWholeNumber<Value: FixedWidthInteger & Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        if let value = try? decode(Value.self, forKey: key) { return value }
        return try decode(Double.self, forKey: key) { number in
            number.isFinite ? Value(exactly: number.rounded()) : nil
        } otherwise: {
            "Expected a whole number, found \($0)."
        }
    }

    /// ``decodeWholeNumber(_:forKey:)`` for a key that may be missing or `null`.
    func decodeWholeNumberIfPresent<Value: FixedWidthInteger & Decodable>(
        _ type: Value.Type,
        forKey key: Key
    ) throws -> Value? {
        try ifPresent(key) { try decodeWholeNumber(type, forKey: $0) }
    }

    /// Reads an integer that may arrive as a decimal string such as `"42"` (the
    /// `may-be-numeric-string` wire quirk).
    func decodeNumericString<Value: FixedWidthInteger & Decodable>(
        _ type: Value.Type,
        forKey key: Key
    ) throws -> Value {
        if let value = try? decode(Value.self, forKey: key) { return value }
        return try decode(String.self, forKey: key) {
            Value($0.trimmingCharacters(in: .whitespaces))
        } otherwise: {
            "Expected an integer or a string of digits, found \"\($0.prefix(64))\"."
        }
    }

    /// ``decodeNumericString(_:forKey:)`` for a key that may be missing or `null`.
    func decodeNumericStringIfPresent<Value: FixedWidthInteger & Decodable>(
        _ type: Value.Type,
        forKey key: Key
    ) throws -> Value? {
        try ifPresent(key) { try decodeNumericString(type, forKey: $0) }
    }

    /// The `Raw` at `key` made into a value by `convert`; a data-corrupted error described by
    /// `problem` when it cannot be.
    private func decode<Raw: Decodable, Value>(
        _ raw: Raw.Type,
        forKey key: Key,
        convert: (Raw) -> Value?,
        otherwise problem: (Raw) -> String
    ) throws -> Value {
        let sent = try decode(Raw.self, forKey: key)
        guard let value = convert(sent) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: problem(sent))
        }
        return value
    }

    /// What `read` reads at `key`, or `nil` when the key is missing or `null`.
    private func ifPresent<Value>(_ key: Key, _ read: (Key) throws -> Value) throws -> Value? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try read(key)
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
    /// Parses `2024-05-01T10:00:00Z`, `2024-05-01T10:00:00.123-05:00` and, when allowed,
    /// `2024-05-01` (midnight UTC).
    package static func timestamp(from text: String, allowingDateOnly: Bool) -> Date? {
        if let date = Date(iso8601Timestamp: text) { return date }
        if allowingDateOnly, let day = CalendarDate(text) { return day.startOfDay(in: .gmt) }
        return nil
    }

    /// Formats `date` as `2024-05-01T10:00:00Z`.
    static func string(from date: Date) -> String {
        date.formatted(.utcTimestamp)
    }
}
