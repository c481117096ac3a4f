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
    /// When the file is made: every event's `DTSTAMP`, and where ``sequence`` comes from.
    ///
    /// The calendar says `METHOD:PUBLISH`, and for such a calendar RFC 5545 defines `DTSTAMP` as
    /// the moment the iCalendar object was created. A server that keeps serving one object until
    /// the timetable changes passes the moment it last changed, so the file (and its `ETag`)
    /// stays the same between changes.
    public var stamp: Date
    /// The calendar's `PRODID`.
    public var productID: String
    /// What follows `@` in every event's `UID`.
    public var uidDomain: String
    /// The calendar's display name (`NAME` and `X-WR-CALNAME`); `nil` for
    /// `Monash week N (student name)`.
    public var calendarName: String?
    /// The `TZID` the campus zone is written under; `nil` for the zone's identifier.
    ///
    /// Foundation names some zones otherwise than the IANA database: `TimeZone(identifier: "UTC")`
    /// calls itself `GMT`. A caller that knows the name the user gave passes it here.
    public var timeZoneName: String?
    /// How often a subscribed calendar app should fetch the calendar again (`REFRESH-INTERVAL`
    /// of RFC 7986, and `X-PUBLISHED-TTL`, which older apps read); `nil`, the default for a file
    /// that is imported once, writes neither. Whole seconds; less than a second writes neither.
    public var refreshInterval: Duration?

    /// Every event's `SEQUENCE`: the whole minutes from 1970-01-01T00:00Z to ``stamp``.
    ///
    /// RFC 5545 asks for a sequence that grows whenever an event is revised, so an app that
    /// already holds the event (same `UID`) knows the newer copy. An export keeps no state and
    /// cannot know which classes changed since the last one, so the number comes from the clock:
    /// a later export never has a lower sequence, and within one minute the later `DTSTAMP`
    /// decides, as RFC 5545 says for equal sequences. Unchanged events get a higher number too,
    /// which apps treat as an update with nothing new. It fits RFC 5545's 32-bit `INTEGER` until
    /// the year 6053.
    public var sequence: Int {
        Int((stamp.timeIntervalSince1970 / 60).rounded(.down))
    }

    /// Creates options.
    public init(
        times: Times = .zoned,
        stamp: Date = Date(),
        productID: String = ICalendarOptions.defaultProductID,
        uidDomain: String = ICalendarOptions.defaultUIDDomain,
        calendarName: String? = nil,
        refreshInterval: Duration? = nil,
        timeZoneName: String? = nil
    ) {
        self.times = times
        self.stamp = stamp
        self.productID = productID
        self.uidDomain = uidDomain
        self.calendarName = calendarName
        self.refreshInterval = refreshInterval
        self.timeZoneName = timeZoneName
    }
}
