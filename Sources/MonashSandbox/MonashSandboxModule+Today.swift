import Foundation
import HTTPCore

@available(macOS 14, iOS 17, tvOS 17, *)
extension MonashSandboxModule.Week {
    /// The payload with every date moved by whole weeks, so its classes fall in the week of
    /// `now` (Monday to Sunday in `campusZone`), or in the week after once the last class of this
    /// week has ended: a student asking what is next always gets a class, and a class under way
    /// is still in the week. Weekdays, times and the week number stay as published, so the same
    /// dates always carry the same number.
    ///
    /// - Parameters:
    ///   - now: Today, from the caller's clock.
    ///   - campusZone: The zone the payload's times are written in.
    public func payload(following now: Date, campusZone: TimeZone) -> String {
        let published = payload
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = campusZone
        calendar.firstWeekday = 2
        let classes = Self.classTimes(in: published)
        let starts = classes.compactMap { Self.date($0.start, in: calendar) }
        let ends = classes.compactMap { Self.date($0.end, in: calendar) }
        guard let first = starts.min(),
            let publishedWeek = calendar.dateInterval(of: .weekOfYear, for: first)?.start,
            let currentWeek = calendar.dateInterval(of: .weekOfYear, for: now)?.start,
            let days = calendar.dateComponents([.day], from: publishedWeek, to: currentWeek).day
        else { return published }
        var weeks = Int((Double(days) / 7).rounded())
        let shifted = { (date: Date, weeks: Int) in calendar.date(byAdding: .day, value: 7 * weeks, to: date) ?? date }
        if !(starts + ends).contains(where: { shifted($0, weeks) > now }) { weeks += 1 }
        guard weeks != 0 else { return published }
        return published.replacing(#/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/#) { match in
            Self.moved(String(published[match.range]), byDays: 7 * weeks)
        }
    }

    private struct Classes: Decodable {
        struct Session: Decodable {
            var start: String
            var end: String

            enum CodingKeys: String, CodingKey {
                case start = "start_time"
                case end = "end_time"
            }
        }
        var schedules: [Session]
    }

    private static func classTimes(in payload: String) -> [Classes.Session] {
        (try? JSONDecoder().decode(Classes.self, from: Data(payload.utf8)))?.schedules ?? []
    }

    /// The fields of `YYYY-MM-DDTHH:MM:SS`.
    private static func components(_ text: String) -> DateComponents? {
        let numbers = text.split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
        guard numbers.count == 6 else { return nil }
        return DateComponents(
            year: numbers[0],
            month: numbers[1],
            day: numbers[2],
            hour: numbers[3],
            minute: numbers[4],
            second: numbers[5]
        )
    }

    private static func date(_ text: String, in calendar: Calendar) -> Date? {
        components(text).flatMap { calendar.date(from: $0) }
    }

    /// The same wall-clock time `days` later; counted on a calendar without daylight saving, so
    /// the time of day never moves.
    private static func moved(_ text: String, byDays days: Int) -> String {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        guard let parts = components(text), let date = utc.date(from: parts),
            let later = utc.date(byAdding: .day, value: days, to: date)
        else { return text }
        return later.formatted(.localTimestamp(in: utc.timeZone))
    }
}
