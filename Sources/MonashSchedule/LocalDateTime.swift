import Foundation

/// A wall-clock date-time as the API writes it, before a time zone turns it into a `Date`.
///
/// The wire format is `YYYY-MM-DDTHH:MM:SS` without a zone. Parsing is strict about the shape
/// (so a typo fails with the key that holds it) but accepts what a future server might add:
/// fractional seconds, and a `Z` or `±HH:MM` offset, which then wins over the campus zone.
struct LocalDateTime: Hashable, Sendable, Decodable, CustomStringConvertible {
    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int
    var nanosecond: Int = 0
    /// An explicit offset from UTC in seconds, when the text carried one.
    var offset: Int? = nil

    static let expectedShape = "a local date-time like 2020-03-13T10:00:00"

    init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = LocalDateTime(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "Expected \(Self.expectedShape), found \"\(text.prefix(40))\""
            )
        }
        self = parsed
    }

    /// Parses the wire format; `nil` for anything else, including impossible dates such as 31 April.
    init?(parsing text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ width: Int) -> Int? {
            guard index + width <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + width] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += width
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("Tt "), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2)
        else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            var digits = 0
            var fraction = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                if digits < 9 {
                    fraction = fraction * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                    digits += 1
                }
                index += 1
            }
            guard index > start else { return nil }
            for _ in digits..<9 { fraction *= 10 }
            nanosecond = fraction
        }
        if index < bytes.count {
            if expect("Zz") {
                offset = 0
            } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                index += 1
                guard let hours = number(2) else { return nil }
                _ = expect(":")
                guard let minutes = number(2), hours <= 18, minutes < 60 else { return nil }
                offset = sign * (hours * 3600 + minutes * 60)
            }
        }
        guard index == bytes.count, (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
    }

    var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
    }

    /// The instant this wall-clock time names in `timeZone` (or at its own offset, if it has one).
    ///
    /// Around daylight-saving changes a wall-clock time can be missing or repeated. A missing one
    /// (02:30 on the night clocks go forward) is moved forward by the gap, as a clock on the wall
    /// would show it; a repeated one (02:30 on the night clocks go back) means its first occurrence,
    /// so nothing that was scheduled is reported late.
    func date(in timeZone: TimeZone) -> Date {
        resolved(in: timeZone).date
    }

    /// The instants a class scheduled from `start` to `end` occupies in `timeZone`.
    ///
    /// Each end is read as ``date(in:)`` reads it, except when the start falls in a daylight-saving
    /// gap: the class then moves forward by the gap as a whole and keeps its scheduled length, so
    /// 02:30–03:30 on the night clocks skip 02:00–03:00 becomes 03:30–04:30, not 03:30–03:30.
    static func span(_ start: LocalDateTime, _ end: LocalDateTime, in timeZone: TimeZone) -> (start: Date, end: Date) {
        let first = start.resolved(in: timeZone)
        let length = end.secondsAsIfUTC - start.secondsAsIfUTC
        guard first.skipped, start.offset == nil, end.offset == nil, length >= 0 else {
            return (first.date, end.date(in: timeZone))
        }
        let nanoseconds = TimeInterval(end.nanosecond - start.nanosecond) / 1e9
        return (first.date, first.date.addingTimeInterval(TimeInterval(length) + nanoseconds))
    }

    /// The instant, and whether the wall-clock time was skipped by a daylight-saving gap.
    private func resolved(in timeZone: TimeZone) -> (date: Date, skipped: Bool) {
        let naive = Date(timeIntervalSince1970: TimeInterval(secondsAsIfUTC) + TimeInterval(nanosecond) / 1e9)
        if let offset {
            return (naive.addingTimeInterval(TimeInterval(-offset)), false)
        }
        // Zones change offset at most once in any two days, so the offsets a day either side are
        // the only candidates.
        let before = timeZone.secondsFromGMT(for: naive.addingTimeInterval(-86_400))
        let after = timeZone.secondsFromGMT(for: naive.addingTimeInterval(86_400))
        let valid = [before, after].map { offset in naive.addingTimeInterval(TimeInterval(-offset)) }
            .filter { candidate in
                let offset = timeZone.secondsFromGMT(for: candidate)
                return candidate == naive.addingTimeInterval(TimeInterval(-offset))
            }
        // No candidate is valid only inside a gap: reading it with the offset before the gap lands
        // the same distance after the change.
        guard let first = valid.min() else { return (naive.addingTimeInterval(TimeInterval(-before)), true) }
        return (first, false)
    }

    /// Seconds since 1970 if the fields were a UTC time (days-from-civil, proleptic Gregorian).
    private var secondsAsIfUTC: Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + hour * 3600 + minute * 60 + second
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
