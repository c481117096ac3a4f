import CLISupport
import Foundation
import Testing

@Suite("Human output helpers")
struct TextTableTests {
    @Test("Columns line up, numbers align right, no line ends in spaces")
    func alignment() {
        var table = TextTable(columns: [.init("NAME"), .init("FREE", alignment: .right), .init("NOTE")])
        table.append(["Clayton live feed", "645", ""])
        table.append(["West", "7", "near the gym"])
        table.append(["Short row"])
        #expect(
            table.render() == """
                NAME               FREE  NOTE
                Clayton live feed   645
                West                  7  near the gym
                Short row
                """
        )
    }

    @Test("Cells stay on one line; a table without header or rows renders nothing")
    func edges() {
        var table = TextTable(columns: [.init("A"), .init("B")], showsHeader: false)
        #expect(table.render().isEmpty)
        table.append(["two\nlines", "tab\there"])
        #expect(table.render() == "two lines  tab here")
    }
}

@Suite("Dates in local time")
struct DateTextTests {
    let melbourne = TimeZone(identifier: "Australia/Melbourne") ?? .gmt
    let instant = Date(timeIntervalSince1970: 1_584_054_000)  // 2020-03-12T23:00:00Z

    @Test("Day, time and ranges are shown in the given zone")
    func local() {
        let dates = DateText(timeZone: melbourne)
        #expect(dates.day(instant) == "Fri 13 Mar")
        #expect(dates.dayWithYear(instant) == "Fri 13 Mar 2020")
        #expect(dates.time(instant) == "10:00")
        #expect(dates.dayAndTime(instant) == "Fri 13 Mar 10:00")
        #expect(dates.timeRange(instant, instant.addingTimeInterval(7200)) == "10:00–12:00")
        let utc = DateText(timeZone: .gmt)
        #expect(utc.timeRange(instant, instant.addingTimeInterval(7200)) == "23:00–Fri 13 Mar 01:00")
    }

    @Test("ISO 8601 carries the zone's offset at that moment")
    func iso() {
        let dates = DateText(timeZone: melbourne)
        #expect(dates.iso8601(instant) == "2020-03-13T10:00:00+11:00")
        #expect(dates.iso8601(instant.addingTimeInterval(120 * 86_400)) == "2020-07-11T09:00:00+10:00")
        #expect(DateText(timeZone: .gmt).iso8601(instant) == "2020-03-12T23:00:00Z")
        let india = TimeZone(identifier: "Asia/Kolkata") ?? .gmt
        #expect(DateText(timeZone: india).iso8601(instant) == "2020-03-13T04:30:00+05:30")
    }

    @Test(
        "Relative times",
        arguments: [(0, "now"), (40, "in 40 s"), (-300, "5 min ago"), (7500, "in 2 h 5 min"), (90_000, "in 1 d 1 h")]
    )
    func relative(seconds: Double, text: String) {
        #expect(DateText.relative(instant.addingTimeInterval(seconds), from: instant) == text)
    }
}

@Suite("Argument types")
struct ArgumentTests {
    @Test("Valid days", arguments: ["2020-03-13", "2024-02-29", "today", "Tomorrow", "yesterday"])
    func validDays(text: String) {
        #expect(CalendarDay(argument: text) != nil)
    }

    @Test("Invalid days", arguments: ["2021-02-29", "2020-13-01", "2020-3-13", "13/03/2020", "", "someday"])
    func invalidDays(text: String) {
        #expect(CalendarDay(argument: text) == nil)
    }

    @Test("A day is read in the user's zone, and 'tomorrow' is a calendar day")
    func noon() throws {
        let melbourne = try #require(TimeZone(identifier: "Australia/Melbourne"))
        let date = try #require(CalendarDay(argument: "2020-03-13"))
        #expect(
            DateText(timeZone: melbourne).iso8601(date.noon(in: melbourne, now: Date())) == "2020-03-13T12:00:00+11:00"
        )
        // Saturday 6 April 2024 23:00 AEDT; Sunday is a 25-hour day.
        let saturdayNight = Date(timeIntervalSince1970: 1_712_404_800)
        let tomorrow = try #require(CalendarDay(argument: "tomorrow")).noon(in: melbourne, now: saturdayNight)
        #expect(DateText(timeZone: melbourne).iso8601(tomorrow) == "2024-04-07T12:00:00+10:00")
    }

    @Test(
        "Local date-times",
        arguments: [
            ("2020-03-13T09:30", "2020-03-13T09:30:00+11:00"),
            ("2020-03-13 09:30:15", "2020-03-13T09:30:15+11:00"),
            ("2020-07-01T00:00", "2020-07-01T00:00:00+10:00"),
        ]
    )
    func localDateTimes(text: String, expected: String) throws {
        let melbourne = try #require(TimeZone(identifier: "Australia/Melbourne"))
        let date = try #require(LocalDateTimeArgument(argument: text)?.date(in: melbourne))
        #expect(DateText(timeZone: melbourne).iso8601(date) == expected)
    }

    @Test("Invalid date-times", arguments: ["2020-03-13", "2020-03-13T24:00", "2020-03-13T9:30", "2020-02-30T10:00"])
    func invalidDateTimes(text: String) {
        #expect(LocalDateTimeArgument(argument: text) == nil)
    }
}

@Suite("Error reports")
struct ErrorReportTests {
    @Test("Network errors get a hint; rate limits say how long to wait")
    func hints() {
        let network = ErrorReport(.network(.init(message: "Connection refused.")))
        #expect(network.hint?.contains("safe to try again") == true)
        #expect(network.retryable)
        #expect(network.exitCode == 6)
        let limited = ErrorReport(.rateLimit(.init(message: "Slow down.", httpStatus: 429, retryAfter: .seconds(30))))
        #expect(limited.hint == "The server asked to wait 30 s: run the command again after that.")
        let own = ErrorReport(.network(.init(message: "x", hint: "Mine.")))
        #expect(own.hint == "Mine.")
    }

    @Test("The human text")
    func human() {
        let report = ErrorReport(code: "api_error", message: "Down.", hint: "Later.", httpStatus: 500, exitCode: 7)
        #expect(report.humanText == "error: Down. (HTTP 500)\nhint: Later.")
    }
}
