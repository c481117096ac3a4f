public import Foundation
import HTTPCore

/// Formats dates for people in one time zone, the same way on every platform and locale.
///
/// Commands show dates in the user's local time (``CommandContext/dates``) and write JSON dates
/// as ISO 8601 with the offset spelled out (``iso8601(_:)``), which is unambiguous for machines
/// and still readable.
public struct DateText: Sendable, Hashable {
    /// The zone dates are shown in.
    public var timeZone: TimeZone

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Creates a formatter for `timeZone`.
    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    private func parts(_ date: Date) -> DateComponents {
        calendar.dateComponents([.year, .month, .day, .weekday, .hour, .minute, .second], from: date)
    }

    /// `Fri 13 Mar`.
    public func day(_ date: Date) -> String {
        let parts = parts(date)
        let weekday = Self.weekdays[((parts.weekday ?? 1) - 1) % 7]
        let month = Self.months[((parts.month ?? 1) - 1) % 12]
        return "\(weekday) \(parts.day ?? 0) \(month)"
    }

    /// `Fri 13 Mar 2020`.
    public func dayWithYear(_ date: Date) -> String {
        "\(day(date)) \(parts(date).year ?? 0)"
    }

    /// `10:00`, on a 24-hour clock.
    public func time(_ date: Date) -> String {
        let parts = parts(date)
        return Self.pad(parts.hour ?? 0) + ":" + Self.pad(parts.minute ?? 0)
    }

    /// `Fri 13 Mar 10:00`.
    public func dayAndTime(_ date: Date) -> String {
        "\(day(date)) \(time(date))"
    }

    /// `10:00–12:00`, or `23:00–Sat 14 Mar 01:00` when the end falls on another day.
    public func timeRange(_ start: Date, _ end: Date) -> String {
        let sameDay = calendar.isDate(start, inSameDayAs: end)
        return "\(time(start))–\(sameDay ? time(end) : dayAndTime(end))"
    }

    /// `2020-03-13T10:00:00+11:00`: ISO 8601 with this zone's offset at that moment (`Z` for UTC).
    public func iso8601(_ date: Date) -> String {
        date.formatted(.timestamp(in: timeZone))
    }

    /// `in 2 h 5 min`, `in 40 s`, `5 min ago` or `now`: how far `date` is from `now`, to the minute
    /// (to the second under a minute).
    public static func relative(_ date: Date, from now: Date) -> String {
        let seconds = Int(date.timeIntervalSince(now).rounded())
        if seconds == 0 { return "now" }
        let magnitude = abs(seconds)
        var parts: [String] = []
        if magnitude < 60 {
            parts.append("\(magnitude) s")
        } else {
            let days = magnitude / 86_400
            let hours = magnitude % 86_400 / 3600
            let minutes = magnitude % 3600 / 60
            if days > 0 { parts.append("\(days) d") }
            if hours > 0 { parts.append("\(hours) h") }
            if minutes > 0, days == 0 { parts.append("\(minutes) min") }
        }
        let text = parts.joined(separator: " ")
        return seconds > 0 ? "in \(text)" : "\(text) ago"
    }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}
