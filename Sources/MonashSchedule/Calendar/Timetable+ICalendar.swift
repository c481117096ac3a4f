import Foundation
import HTTPCore

extension Timetable {
    /// The week's classes as an iCalendar (RFC 5545) file that calendar apps import.
    ///
    /// ```swift
    /// let week = try await client.timetable()
    /// try week.iCalendar().write(to: file, atomically: true, encoding: .utf8)
    /// ```
    ///
    /// One `VEVENT` per class, earliest first (classes starting together by course and class, not
    /// in the API's order, so the same week always gives the same file):
    /// - `SUMMARY`: course and class (`FIT1031 Lecture 01`); `LOCATION`: room and campus
    ///   (`S4, 13 College Walk, Clayton`); `DESCRIPTION`: `Lecturer: Arun`;
    /// - `DTSTART` / `DTEND` in the campus zone with a `VTIMEZONE` (or in UTC, see
    ///   ``ICalendarOptions/Times``); `DTEND` is left out when the API sent an end that is not
    ///   after the start; a week with no classes still has the `VTIMEZONE`, so the file holds a
    ///   component, as RFC 5545 requires;
    /// - `UID` from the class's identity: student, week (ISO 8601, in the campus zone), course and
    ///   class, never its time, so importing the week again after a class moved updates the event
    ///   instead of adding a copy; a class listed twice in a week gets `-2`, `-3`, … in that order;
    /// - `SEQUENCE`: ``ICalendarOptions/sequence``, which grows with ``ICalendarOptions/stamp``, so
    ///   the newer import wins; `DTSTAMP`: ``ICalendarOptions/stamp``.
    ///
    /// With ``ICalendarOptions/refreshInterval`` the calendar also says how often a subscribed
    /// app should fetch it again (`REFRESH-INTERVAL`, `X-PUBLISHED-TTL`).
    ///
    /// Text is escaped (`\`, `;`, `,`, line breaks), lines are folded at 75 octets without
    /// splitting a character, and every line ends with CRLF.
    public func iCalendar(_ options: ICalendarOptions = ICalendarOptions()) -> String {
        var text = ICalendarText()
        text.line("BEGIN", "VCALENDAR")
        text.line("VERSION", "2.0")
        text.line("PRODID", ICalendarText.escaped(options.productID))
        text.line("CALSCALE", "GREGORIAN")
        text.line("METHOD", "PUBLISH")
        let name = options.calendarName ?? defaultCalendarName
        text.textLine("NAME", name)
        text.textLine("X-WR-CALNAME", name)
        if let refresh = options.refreshInterval.flatMap(Self.durationText) {
            text.line("REFRESH-INTERVAL", parameters: [("VALUE", "DURATION")], refresh)
            text.line("X-PUBLISHED-TTL", refresh)
        }
        // The API promises no order, so classes starting together are put in one of the file's own:
        // the same week always gives the same text, and a feed sees no change where there is none.
        let classes = classes.map { (session: $0, base: uidBase(for: $0)) }.sorted {
            ($0.session.start, $0.base, $0.session.end, $0.session.room, $0.session.campus, $0.session.lecturer)
                < ($1.session.start, $1.base, $1.session.end, $1.session.room, $1.session.campus, $1.session.lecturer)
        }
        // RFC 5545 wants at least one component, so an empty week carries the campus zone even
        // when its times would be in UTC.
        if options.times == .zoned || classes.isEmpty {
            let starts = classes.map(\.session.start)
            let ends = classes.map { max($0.session.start, $0.session.end) }
            let span = (starts.min() ?? options.stamp)...(ends.max() ?? options.stamp)
            ICalendarTimeZone.component(timeZone, named: tzid(options), covering: span, into: &text)
        }
        // A repeated class gets -2, -3…; a suffix another class's own name already ends in is
        // passed over, so every UID stays unique (RFC 5545 §3.8.4.7).
        var taken: Set<String> = []
        var repeats: [String: Int] = [:]
        for (session, base) in classes {
            var seen = repeats[base, default: 0]
            var uid: String
            repeat {
                seen += 1
                uid = base + (seen > 1 ? "-\(seen)" : "")
            } while !taken.insert(uid).inserted
            repeats[base] = seen
            event(session, uid: uid + "@" + options.uidDomain, options: options, into: &text)
        }
        text.line("END", "VCALENDAR")
        return text.text
    }

    private var defaultCalendarName: String {
        let who = student.name.trimmingCharacters(in: .whitespacesAndNewlines)
        return who.isEmpty ? "Monash week \(week)" : "Monash week \(week) (\(who))"
    }

    private func event(_ session: ClassSession, uid: String, options: ICalendarOptions, into text: inout ICalendarText)
    {
        text.line("BEGIN", "VEVENT")
        text.line("UID", ICalendarText.escaped(uid))
        text.line("DTSTAMP", options.stamp.formatted(.compactUTCTimestamp))
        text.line("SEQUENCE", String(options.sequence))
        dateTime("DTSTART", session.start, options: options, into: &text)
        if session.end > session.start { dateTime("DTEND", session.end, options: options, into: &text) }
        text.textLine(
            "SUMMARY",
            [session.course, session.kind].map(trimmed).filter { !$0.isEmpty }.joined(separator: " ")
        )
        text.textLine(
            "LOCATION",
            [session.room, session.campus].map(trimmed).filter { !$0.isEmpty }.joined(separator: ", ")
        )
        let lecturer = trimmed(session.lecturer)
        if !lecturer.isEmpty { text.textLine("DESCRIPTION", "Lecturer: \(lecturer)") }
        text.line("END", "VEVENT")
    }

    /// The name the campus zone goes by in this file.
    private func tzid(_ options: ICalendarOptions) -> String {
        options.timeZoneName ?? timeZone.identifier
    }

    private func dateTime(_ name: String, _ date: Date, options: ICalendarOptions, into text: inout ICalendarText) {
        switch options.times {
        case .utc:
            text.line(name, date.formatted(.compactUTCTimestamp))
        case .zoned where Self.isLaterOccurrence(date, in: timeZone):
            // A wall time the clocks go back over names its first occurrence (RFC 5545 §3.3.5),
            // so the second can only be written as the instant itself.
            text.line(name, date.formatted(.compactUTCTimestamp))
        case .zoned:
            text.line(
                name,
                parameters: [("TZID", tzid(options))],
                date.formatted(.compactLocalTimestamp(in: timeZone))
            )
        }
    }

    /// Whether the wall time `date` shows in `zone` also came earlier that night, before the
    /// clocks went back: then `date` is its second occurrence.
    static func isLaterOccurrence(_ date: Date, in zone: TimeZone) -> Bool {
        let offset = zone.secondsFromGMT(for: date)
        let day: TimeInterval = 86_400
        for other in Set([zone.secondsFromGMT(for: date - day), zone.secondsFromGMT(for: date + day)])
        where other > offset {
            // The same wall time at the other offset, and whether the zone was at that offset then.
            let earlier = date - TimeInterval(other - offset)
            if zone.secondsFromGMT(for: earlier) == other { return true }
        }
        return false
    }

    /// `305491-2020W11-FIT1031-Lecture-01` (before `@domain`): the student, the ISO 8601 week the
    /// class is in on the campus calendar, the course and the class, with letters and digits kept
    /// and anything else a `-`. Not the time: a class moved within its week keeps its `UID`.
    private func uidBase(for session: ClassSession) -> String {
        let parts = [student.id, isoWeek(of: session.start), session.course, session.kind].map { part in
            String(trimmed(part).map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
        }
        return parts.joined(separator: "-")
    }

    /// `2020W11`: the ISO 8601 week-numbering year and week of `date` in the campus zone.
    private func isoWeek(of date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.firstWeekday = 2
        calendar.minimumDaysInFirstWeek = 4
        let parts = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)
        let week = parts.weekOfYear ?? 0
        return "\(parts.yearForWeekOfYear ?? 0)W\(week < 10 ? "0" : "")\(week)"
    }

    /// `PT15M`, `PT1H30M`, `P1D`: an RFC 5545 DURATION of whole seconds; `nil` under a second.
    static func durationText(_ duration: Duration) -> String? {
        let seconds = Int(duration.components.seconds)
        guard seconds > 0 else { return nil }
        let days = seconds / 86_400
        let time = [(seconds % 86_400 / 3600, "H"), (seconds % 3600 / 60, "M"), (seconds % 60, "S")]
            .filter { $0.0 > 0 }.map { "\($0.0)\($0.1)" }.joined()
        return "P" + (days > 0 ? "\(days)D" : "") + (time.isEmpty ? "" : "T" + time)
    }

    private func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension ScheduleClient {
    /// Fetches the student's week and returns it as an iCalendar file (see
    /// ``Timetable/iCalendar(_:)``).
    ///
    /// - Throws: ``HTTPCore/APIError``, as ``timetable()`` does.
    public func iCalendar(_ options: ICalendarOptions = ICalendarOptions()) async throws -> String {
        try await timetable().iCalendar(options)
    }
}
