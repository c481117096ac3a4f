public import ArgumentParser
public import Foundation

/// A calendar day on the command line: `2020-03-13`, `today`, `tomorrow` or `yesterday`.
///
/// The day is read in the user's local time zone, the zone the tool prints dates in, so
/// `--day today` means the day the user sees on their clock. A malformed value fails parsing
/// (exit 64) like any other bad argument.
public enum CalendarDay: ExpressibleByArgument, Sendable, Hashable {
    /// A day relative to today: 0 today, 1 tomorrow, -1 yesterday.
    case relative(days: Int)
    /// A date.
    case date(year: Int, month: Int, day: Int)

    /// Parses `YYYY-MM-DD`, `today`, `tomorrow` or `yesterday`.
    public init?(argument: String) {
        switch argument.lowercased() {
        case "today": self = .relative(days: 0)
        case "tomorrow": self = .relative(days: 1)
        case "yesterday": self = .relative(days: -1)
        default:
            let fields = argument.split(separator: "-", omittingEmptySubsequences: false)
            guard fields.count == 3, fields[0].count == 4, fields[1].count == 2, fields[2].count == 2,
                let year = Int(fields[0]), let month = Int(fields[1]), let day = Int(fields[2]),
                (1...12).contains(month), (1...31).contains(day)
            else { return nil }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .gmt
            let components = DateComponents(year: year, month: month, day: day)
            // Rejects 2021-02-30 and the like, which DateComponents alone would roll over.
            guard let date = calendar.date(from: components),
                calendar.dateComponents([.year, .month, .day], from: date) == components
            else { return nil }
            self = .date(year: year, month: month, day: day)
        }
    }

    /// Shell completion offers the named days; dates are typed.
    public static var defaultCompletionKind: CompletionKind {
        .list(["today", "tomorrow", "yesterday"])
    }

    /// Noon of the day in `timeZone`: a moment that is inside the day even when a daylight-saving
    /// change makes it 23 or 25 hours long.
    ///
    /// - Parameter now: What "today" is.
    public func noon(in timeZone: TimeZone, now: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        switch self {
        case .relative(let days):
            // Add whole days first, then set the hour: adding "1 day 12 hours" would count the 12
            // hours as elapsed time and land at 11:00 on a 25-hour day.
            let today = calendar.startOfDay(for: now)
            let day = calendar.date(byAdding: .day, value: days, to: today) ?? today
            return calendar.date(bySettingHour: 12, minute: 0, second: 0, of: day) ?? day
        case .date(let year, let month, let day):
            return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12)) ?? now
        }
    }
}

/// A wall-clock date and time on the command line, `2020-03-13T09:30` (seconds optional, a space
/// may replace the `T`), read in the user's local time zone.
public struct LocalDateTimeArgument: ExpressibleByArgument, Sendable, Hashable {
    /// The date and time fields as given.
    public var components: DateComponents

    /// Parses `YYYY-MM-DDTHH:MM[:SS]`.
    public init?(argument: String) {
        let normalized = argument.replacingOccurrences(of: " ", with: "T")
        let halves = normalized.split(separator: "T", omittingEmptySubsequences: false)
        guard halves.count == 2, case .date(let year, let month, let day) = CalendarDay(argument: String(halves[0]))
        else { return nil }
        let clock = halves[1].split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(clock.count), clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        let second = clock.count == 3 ? Int(clock[2]) : 0
        guard let second, (0..<60).contains(second) else { return nil }
        components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// The moment in `timeZone`; a time skipped by a daylight-saving change resolves as the
    /// platform calendar does (forward).
    public func date(in timeZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(from: components)
    }
}
