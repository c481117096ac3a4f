import Foundation
import HTTPCore

/// A calendar day without a time or time zone, as Basecamp sends `due_on` and `starts_on`:
/// `"2024-05-01"`.
///
/// Kept apart from `Date` so that a due date never shifts by a day when read in another time
/// zone.
///
/// ```swift
/// let due = CalendarDate(year: 2024, month: 5, day: 1)
/// let parsed = CalendarDate("2024-05-01")   // Optional, nil for malformed text
/// ```
public struct CalendarDate: Sendable, Hashable, Comparable, Codable, LosslessStringConvertible {
    /// The year, e.g. 2024.
    public var year: Int
    /// The month, 1–12.
    public var month: Int
    /// The day of the month, 1–31.
    public var day: Int

    /// Creates a day from its parts; they are not checked against the calendar.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`; a longer ISO 8601 timestamp is cut to its date part. Returns `nil`
    /// for anything else or for a day that does not exist.
    public init?(_ description: String) {
        let text = description.trimmingCharacters(in: .whitespaces)
        let parts = text.prefix(10).split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10 || (text.count > 10 && text.dropFirst(10).first == "T"),
            parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day `date` falls on in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        self.init(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        let yearText = String(year)
        let paddedYear = String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
        return "\(paddedYear)-\(Self.twoDigits(month))-\(Self.twoDigits(day))"
    }

    /// Midnight at the start of this day in `timeZone`.
    public func startOfDay(in timeZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(from: DateComponents(year: year, month: month, day: day))
    }

    /// Orders days chronologically.
    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Reads `"YYYY-MM-DD"` (a longer timestamp is cut to its date part).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = CalendarDate(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "Expected a date like 2024-05-01, found \"\(text.prefix(64))\"."
            )
        }
        self = value
    }

    /// Writes `"YYYY-MM-DD"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 && value >= 0 ? "0\(value)" : String(value)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

extension CalendarDate: QueryValueConvertible {
    /// The day as `YYYY-MM-DD` text.
    public var queryValue: QueryValue { .string(description) }
}
