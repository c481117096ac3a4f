import Foundation

extension Timetable {
    /// The week's classes as an iCalendar (RFC 5545) file that calendar apps import.
    ///
    /// ```swift
    /// let week = try await client.timetable()
    /// try week.iCalendar().write(to: file, atomically: true, encoding: .utf8)
    /// ```
    ///
    /// One `VEVENT` per class, earliest first:
    /// - `SUMMARY`: course and class (`FIT1031 Lecture 01`); `LOCATION`: room and campus
    ///   (`S4, 13 College Walk, Clayton`); `DESCRIPTION`: `Lecturer: Arun`;
    /// - `DTSTART` / `DTEND` in the campus zone with a `VTIMEZONE` (or in UTC, see
    ///   ``ICalendarOptions/Times``); `DTEND` is left out when the API sent an end that is not
    ///   after the start;
    /// - `UID` from the student, course, class and start, so importing the same week again updates
    ///   the events instead of adding copies; a class listed twice gets `-2`, `-3`, … in order;
    /// - `DTSTAMP`: ``ICalendarOptions/stamp``.
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
        let classes = sortedClasses
        if options.times == .zoned {
            let starts = classes.map(\.start)
            let ends = classes.map { max($0.start, $0.end) }
            let span = (starts.min() ?? options.stamp)...(ends.max() ?? options.stamp)
            ICalendarTimeZone.component(timeZone, covering: span, into: &text)
        }
        var usedUIDs: [String: Int] = [:]
        for session in classes {
            let base = uidBase(for: session)
            let seen = usedUIDs[base, default: 0] + 1
            usedUIDs[base] = seen
            let uid = base + (seen > 1 ? "-\(seen)" : "") + "@" + options.uidDomain
            event(session, uid: uid, options: options, into: &text)
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
        text.line("DTSTAMP", ICalendarTimeZone.utcTime(options.stamp))
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

    private func dateTime(_ name: String, _ date: Date, options: ICalendarOptions, into text: inout ICalendarText) {
        switch options.times {
        case .utc:
            text.line(name, ICalendarTimeZone.utcTime(date))
        case .zoned:
            let wall = ICalendarTimeZone.wallTime(date, offset: timeZone.secondsFromGMT(for: date))
            text.line(name, parameters: [("TZID", timeZone.identifier)], wall)
        }
    }

    /// `305491-FIT1031-Lecture-01-20200312T230000Z` (before `@domain`): letters and digits kept,
    /// anything else a `-`, so the UID is the same on every export of the same class.
    private func uidBase(for session: ClassSession) -> String {
        let parts = [student.id, session.course, session.kind].map { part in
            String(trimmed(part).map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
        }
        return (parts + [ICalendarTimeZone.utcTime(session.start)]).joined(separator: "-")
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
