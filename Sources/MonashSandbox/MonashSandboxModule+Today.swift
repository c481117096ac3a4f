import Foundation
import HTTPCore

@available(macOS 14, iOS 17, tvOS 17, *)
extension MonashSandboxModule.Week {
    /// The payload with every date moved by whole weeks, so its classes fall in the week of
    /// `now` (Monday to Sunday in `campusZone`), or in the week after once the last class of this
    /// week has started: a student asking what is next always gets a class. Weekdays and times
    /// stay as published, and the week number goes up by one when the next week is served.
    ///
    /// - Parameters:
    ///   - now: Today, from the caller's clock.
    ///   - campusZone: The zone the payload's times are written in.
    public func payload(following now: Date, campusZone: TimeZone) -> String {
        let published = payload
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = campusZone
        calendar.firstWeekday = 2
        let starts = Self.classStarts(in: published).compactMap { Self.date($0, in: calendar) }
        guard let first = starts.min(),
            let publishedWeek = calendar.dateInterval(of: .weekOfYear, for: first)?.start,
            let currentWeek = calendar.dateInterval(of: .weekOfYear, for: now)?.start,
            let days = calendar.dateComponents([.day], from: publishedWeek, to: currentWeek).day
        else { return published }
        var weeks = Int((Double(days) / 7).rounded())
        let shifted = { (date: Date, weeks: Int) in calendar.date(byAdding: .day, value: 7 * weeks, to: date) ?? date }
        let rolledOver = !starts.contains { shifted($0, weeks) > now }
        if rolledOver { weeks += 1 }
        guard weeks != 0 else { return published }

        var text = published.replacing(#/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/#) { match in
            Self.moved(String(published[match.range]), byDays: 7 * weeks)
        }
        if rolledOver {
            text = text.replacing(#/"week": (\d+)/#, maxReplacements: 1) { match in
                "\"week\": \((Int(match.output.1) ?? 0) + 1)"
            }
        }
        return text
    }

    private struct Classes: Decodable {
        struct Session: Decodable {
            var startTime: String

            enum CodingKeys: String, CodingKey {
                case startTime = "start_time"
            }
        }
        var schedules: [Session]
    }

    private static func classStarts(in payload: String) -> [String] {
        ((try? JSONDecoder().decode(Classes.self, from: Data(payload.utf8)))?.schedules ?? []).map(\.startTime)
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
