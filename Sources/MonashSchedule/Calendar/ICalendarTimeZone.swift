import Foundation
import HTTPCore

/// A `VTIMEZONE` for a Foundation time zone over a span of dates, and the UTC offsets iCalendar
/// writes.
///
/// The component lists the zone's actual offset changes (`STANDARD` / `DAYLIGHT` observances with
/// their onset, `TZOFFSETFROM` and `TZOFFSETTO`) from a year before the span to its end, read from
/// the same time-zone data that turned the API's wall-clock times into `Date`s, so a reader that
/// follows the component gets exactly those instants. Explicit onsets rather than `RRULE`s: they
/// are right for whatever rules the zone had in those years, without deriving a rule.
enum ICalendarTimeZone {
    /// Observances are listed from this long before the span, so its start is always covered.
    static let lookBack: TimeInterval = 366 * 86_400

    static func component(
        _ zone: TimeZone,
        named name: String,
        covering span: ClosedRange<Date>,
        into text: inout ICalendarText
    ) {
        text.line("BEGIN", "VTIMEZONE")
        text.line("TZID", name)
        var transitions: [Date] = []
        var cursor = span.lowerBound.addingTimeInterval(-lookBack)
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next <= span.upperBound {
            transitions.append(next)
            cursor = next
        }
        if transitions.first.map({ $0 > span.lowerBound }) ?? true {
            // Nothing changes the offset before the span starts: one observance from long before.
            let start = span.lowerBound.addingTimeInterval(-lookBack)
            let offset = zone.secondsFromGMT(for: start)
            observance(zone.isDaylightSavingTime(for: start), onset: start, from: offset, to: offset, into: &text)
        }
        for transition in transitions {
            let from = zone.secondsFromGMT(for: transition.addingTimeInterval(-1))
            let to = zone.secondsFromGMT(for: transition)
            observance(zone.isDaylightSavingTime(for: transition), onset: transition, from: from, to: to, into: &text)
        }
        text.line("END", "VTIMEZONE")
    }

    private static func observance(_ daylight: Bool, onset: Date, from: Int, to: Int, into text: inout ICalendarText) {
        let kind = daylight ? "DAYLIGHT" : "STANDARD"
        text.line("BEGIN", kind)
        // An observance's onset is written in the wall time in force before it.
        let wallTime = onset.addingTimeInterval(TimeInterval(from))
        text.line("DTSTART", wallTime.formatted(.compactLocalTimestamp(in: .gmt)))
        text.line("TZOFFSETFROM", offsetText(from))
        text.line("TZOFFSETTO", offsetText(to))
        text.line("END", kind)
    }

    /// `+1100`, `-0330`, or `+053045` when seconds are needed.
    static func offsetText(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = abs(seconds)
        let text = sign + pad(magnitude / 3600, 2) + pad(magnitude % 3600 / 60, 2)
        return magnitude % 60 == 0 ? text : text + pad(magnitude % 60, 2)
    }

    private static func pad(_ value: Int?, _ width: Int) -> String {
        let digits = String(value ?? 0)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
