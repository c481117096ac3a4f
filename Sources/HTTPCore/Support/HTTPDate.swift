import Foundation

/// Parses the three date formats HTTP allows (RFC 9110 §5.6.7), and writes the one it sends.
///
/// Written by hand rather than with `DateFormatter` because it runs on every rate-limited
/// response, must be thread-safe without locks, and must never crash on hostile input.
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT` or
    /// `Sun Nov  6 08:49:37 1994`; `nil` for anything else.
    package static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count < 64 else { return nil }
        let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        if words.count == 4, words[3] == "GMT" {
            // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
            let parts = words[1].split(separator: "-").map(String.init)
            guard parts.count == 3, parts[2].count == 2, var year = number(parts[2]) else { return nil }
            year += year < 70 ? 2000 : 1900
            return make(day: parts[0], month: parts[1], year: year, time: words[2])
        }
        if words.count == 6, words[5] == "GMT" {
            // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
            guard words[3].count == 4, let year = number(words[3]) else { return nil }
            return make(day: words[1], month: words[2], year: year, time: words[4])
        }
        if words.count == 5 {
            // asctime: Sun Nov  6 08:49:37 1994
            guard words[4].count == 4, let year = number(words[4]) else { return nil }
            return make(day: words[2], month: words[1], year: year, time: words[3])
        }
        return nil
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`: the IMF-fixdate form every HTTP date is sent in, to the
    /// whole second (fractions are dropped).
    package static func format(_ date: Date) -> String {
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let parts = calendar.dateComponents([.year, .month, .day, .weekday, .hour, .minute, .second], from: date)
        func pad(_ value: Int?, _ width: Int = 2) -> String {
            let digits = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let weekday = weekdays[((parts.weekday ?? 1) - 1) % 7]
        let month = months[((parts.month ?? 1) - 1) % 12].capitalized
        return "\(weekday), \(pad(parts.day)) \(month) \(pad(parts.year, 4)) "
            + "\(pad(parts.hour)):\(pad(parts.minute)):\(pad(parts.second)) GMT"
    }

    /// The value of a run of ASCII digits; `nil` for signs, spaces or other digits.
    private static func number(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(text)
    }

    private static func make(day: String, month: String, year: Int, time: String) -> Date? {
        guard day.count <= 2, let dayNumber = number(day), (1...31).contains(dayNumber),
            let monthIndex = months.firstIndex(of: month.lowercased()), (1...9999).contains(year)
        else { return nil }
        let clock = time.split(separator: ":").map(String.init)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = number(clock[0]), let minute = number(clock[1]), let second = number(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let components = DateComponents(
            year: year,
            month: monthIndex + 1,
            day: dayNumber,
            hour: hour,
            minute: minute,
            second: second
        )
        return calendar.date(from: components)
    }
}
