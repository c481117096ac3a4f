import Foundation

/// How ``Timetable/iCalendar(_:)`` writes a week's classes as an iCalendar (RFC 5545) file.
public struct ICalendarOptions: Sendable, Hashable {
    /// How event times are written.
    public enum Times: Sendable, Hashable {
        /// Campus wall-clock times with the zone's identifier (`DTSTART;TZID=Australia/Melbourne:
        /// 20240405T100000`) and a `VTIMEZONE` that carries the zone's offsets and daylight-saving
        /// changes around the week, taken from the same time-zone data that read the API's times.
        /// Calendar apps show the class at 10:00 Melbourne time wherever the reader is, and a
        /// later change to the zone's rules moves it with the campus clock.
        case zoned
        /// UTC instants (`DTSTART:20240404T230000Z`): no time zone to interpret, for tools that
        /// handle `TZID` poorly.
        case utc
    }

    /// The `PRODID` written unless told otherwise.
    public static let defaultProductID = "-//swift-api-sdks//MonashSchedule//EN"
    /// The domain part of event UIDs unless told otherwise.
    public static let defaultUIDDomain = "monash-schedule.swift-api-sdks"

    /// How event times are written; ``Times/zoned`` by default.
    public var times: Times
    /// When the file is made: every event's `DTSTAMP`.
    public var stamp: Date
    /// The calendar's `PRODID`.
    public var productID: String
    /// What follows `@` in every event's `UID`.
    public var uidDomain: String
    /// The calendar's display name (`NAME` and `X-WR-CALNAME`); `nil` for
    /// `Monash week N (student name)`.
    public var calendarName: String?

    /// Creates options.
    public init(
        times: Times = .zoned,
        stamp: Date = Date(),
        productID: String = ICalendarOptions.defaultProductID,
        uidDomain: String = ICalendarOptions.defaultUIDDomain,
        calendarName: String? = nil
    ) {
        self.times = times
        self.stamp = stamp
        self.productID = productID
        self.uidDomain = uidDomain
        self.calendarName = calendarName
    }
}
