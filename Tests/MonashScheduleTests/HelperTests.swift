import Foundation
import HTTPCoreTesting
import MonashSchedule
import Testing

/// The "what now?" helpers, each with the clock pinned by HTTPCoreTesting's `TestClock`.
@Suite("Helpers with an injected clock")
struct HelperTests {
    let week: Timetable

    init() throws {
        week = try Timetable.decode(from: Fixtures.large)
    }

    func assistant(at time: String) throws -> TimetableAssistant {
        TimetableAssistant(timetable: week, clock: TestClock(start: try Fixtures.instant(time)))
    }

    @Test("Today's classes are the campus day's, earliest first")
    func classesToday() throws {
        let tuesday = try assistant(at: "2024-04-02T07:00:00+11:00").classesToday()
        #expect(tuesday.map(\.kind) == ["Lecture 01", "Applied 04", "Lecture 02"])
        // The payload lists Friday backwards; the helper sorts.
        let friday = try assistant(at: "2024-04-05T23:59:00+11:00").classesToday()
        #expect(friday.map(\.start) == friday.map(\.start).sorted())
        #expect(friday.map(\.course) == ["FIT3171", "FIT2004", "MTH2010"])
        #expect(try assistant(at: "2024-04-06T10:00:00+11:00").classesToday().isEmpty)
    }

    @Test("'Today' is the campus's day even when UTC is still on yesterday")
    func campusDay() throws {
        // 22:30 UTC on Monday 1 April is 09:30 on Tuesday in Melbourne.
        let assistant = try assistant(at: "2024-04-01T22:30:00Z")
        #expect(assistant.classesToday().count == 3)
        #expect(assistant.classes(daysFromToday: 1).map(\.course) == ["FIT2099", "FIT2099", "FIT3175"])
        #expect(assistant.classes(daysFromToday: -1).isEmpty)
    }

    @Test("The next class follows the clock")
    func nextClass() throws {
        let clock = TestClock(start: try Fixtures.instant("2024-04-02T10:00:00+11:00"))
        let assistant = TimetableAssistant(timetable: week, clock: clock)
        #expect(assistant.classInProgress()?.kind == "Lecture 01")
        #expect(assistant.nextClass()?.kind == "Applied 04")

        clock.advance(by: .seconds(2 * 3600))  // 12:00 exactly: Applied 04 starts now
        #expect(assistant.nextClass()?.kind == "Applied 04")
        #expect(assistant.classInProgress()?.kind == "Applied 04")

        clock.advance(by: .seconds(1))
        #expect(assistant.nextClass()?.kind == "Lecture 02")
    }

    @Test("After the last class there is no next one")
    func weekOver() throws {
        let assistant = try assistant(at: "2024-04-05T16:00:00+11:00")
        #expect(assistant.nextClass() == nil)
        #expect(assistant.classInProgress() == nil)
    }

    @Test(
        "The next bus from a stop, whatever its spelling",
        arguments: [
            ("Clayton", "2024-04-02T07:31:00+11:00", "Peninsula"),
            ("  clayton ", "2024-04-02T07:31:00+11:00", "Peninsula"),
            ("CAULFIELD", "2024-04-02T07:00:00+11:00", "Clayton"),
            ("Huntingdale Station", "2024-04-02T08:00:00+11:00", "Clayton"),
        ]
    )
    func nextBus(stop: String, time: String, arrival: String) throws {
        let leg = try #require(try assistant(at: time).nextBus(from: stop))
        #expect(leg.arrivalStop == arrival)
        #expect(leg.predictedArrival >= (try Fixtures.instant(time)))
    }

    @Test("The next bus is the earliest one at or after now")
    func nextBusTime() throws {
        let leg = try assistant(at: "2024-04-02T07:31:00+11:00").nextBus(from: "Clayton")
        #expect(leg?.predictedArrival == (try Fixtures.instant("2024-04-02T08:05:00+11:00")))
        let exact = try assistant(at: "2024-04-02T08:05:00+11:00").nextBus(from: "Clayton")
        #expect(exact?.arrivalStop == "Peninsula")
    }

    @Test("No bus from an unknown stop, or after the last departure")
    func noBus() throws {
        #expect(try assistant(at: "2024-04-02T07:00:00+11:00").nextBus(from: "Narnia") == nil)
        #expect(try assistant(at: "2024-04-02T18:06:00+11:00").nextBus(from: "Clayton") == nil)
    }

    @Test("The car park with most free slots; the first listed wins a tie")
    func carPark() throws {
        #expect(
            try assistant(at: "2024-04-02T07:00:00+11:00").carParkWithMostFreeSlots()?.name == "Peninsula car park 3"
        )
        let tie = try Fixtures.timetable(parkings: [("A", 3), ("B", 9), ("C", 9)])
        #expect(TimetableAssistant(timetable: tie, clock: TestClock()).carParkWithMostFreeSlots()?.name == "B")
        let none = try Fixtures.timetable()
        #expect(TimetableAssistant(timetable: none, clock: TestClock()).carParkWithMostFreeSlots() == nil)
    }
}
