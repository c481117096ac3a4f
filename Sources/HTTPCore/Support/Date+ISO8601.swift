import Foundation

// The ISO 8601 forms the package reads and writes, each defined once and named for what it is.
// Every form writes ASCII digits in the Gregorian calendar whatever the user's locale, and
// `date.formatted(.utcTimestamp)` reads as it is written.

extension FormatStyle where Self == Date.ISO8601FormatStyle {
    /// `2024-05-01T10:00:00Z`: UTC with whole seconds, RFC 3339's internet date-time, as REST APIs
    /// send timestamps.
    package static var utcTimestamp: Self { Date.ISO8601FormatStyle() }

    /// `2024-05-01T10:00:00.123Z`: UTC with milliseconds.
    package static var utcTimestampWithFraction: Self { Date.ISO8601FormatStyle(includingFractionalSeconds: true) }

    /// `2024-05-01`: the calendar day the date falls on in `timeZone`.
    package static func calendarDate(in timeZone: TimeZone = .gmt) -> Self {
        Date.ISO8601FormatStyle(timeZone: timeZone).year().month().day()
    }

    /// `2024-05-01T20:00:00+10:00`: the wall time in `timeZone` with that zone's offset at that
    /// moment (`Z` when it is zero), unambiguous for machines and still readable for people.
    package static func timestamp(in timeZone: TimeZone) -> Self {
        Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: timeZone)
    }

    /// `2024-05-01T20:00:00`: the wall time in `timeZone` without an offset, for wire formats
    /// whose zone is agreed elsewhere.
    package static func localTimestamp(in timeZone: TimeZone) -> Self {
        Date.ISO8601FormatStyle(timeZone: timeZone).year().month().day().time(includingFractionalSeconds: false)
    }

    /// `20240501T100000Z`: UTC in ISO 8601's basic format, as iCalendar writes UTC times and as
    /// file names carry a moment.
    package static var compactUTCTimestamp: Self {
        Date.ISO8601FormatStyle(dateSeparator: .omitted, timeSeparator: .omitted)
    }

    /// `20240501T200000`: the wall time in `timeZone` in the basic format without an offset, as
    /// iCalendar writes a time whose zone its `TZID` names.
    package static func compactLocalTimestamp(in timeZone: TimeZone) -> Self {
        Date.ISO8601FormatStyle(dateSeparator: .omitted, timeSeparator: .omitted, timeZone: timeZone)
            .year().month().day().time(includingFractionalSeconds: false)
    }
}

extension Date {
    /// Reads an ISO 8601 date-time with or without fractional seconds, in UTC (`Z`) or with an
    /// offset: `2024-05-01T10:00:00Z`, `2024-05-01T10:00:00.123-05:00`. `nil` for anything else.
    package init?(iso8601Timestamp text: String) {
        if let date = try? Date.ISO8601FormatStyle.utcTimestamp.parse(text) {
            self = date
        } else if let date = try? Date.ISO8601FormatStyle.utcTimestampWithFraction.parse(text) {
            self = date
        } else {
            return nil
        }
    }
}
