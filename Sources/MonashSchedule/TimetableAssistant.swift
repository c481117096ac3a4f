public import Foundation
public import HTTPCore

/// Answers "what now?" questions about a timetable with an injected clock.
///
/// Apps ask relative questions — today's classes, the next class, the next bus — whose answers
/// depend on the time. Taking the clock as a ``HTTPCore/TimeSource`` (rather than reading `Date()`)
/// lets tests pin "now" with `TestClock` and lets a command show the week as it would look at
/// another time.
///
/// ```swift
/// let assistant = TimetableAssistant(timetable: try await client.timetable())
/// if let next = assistant.nextClass() { print("\(next.course) \(next.kind) in \(next.room)") }
/// ```
public struct TimetableAssistant: Sendable {
    /// The timetable the answers come from.
    public var timetable: Timetable
    /// Where "now" comes from.
    public let clock: any TimeSource

    /// Creates an assistant; the default clock is the system's.
    public init(timetable: Timetable, clock: any TimeSource = SystemTimeSource()) {
        self.timetable = timetable
        self.clock = clock
    }

    /// The clock's current time.
    public var now: Date { clock.now() }

    /// Today's classes (today in the campus time zone), earliest first.
    public func classesToday() -> [ClassSession] {
        timetable.classes(onSameDayAs: now)
    }

    /// The classes of the day `daysFromToday` days from today in the campus time zone (1 for
    /// tomorrow, -1 for yesterday), earliest first.
    public func classes(daysFromToday: Int) -> [ClassSession] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timetable.timeZone
        let today = calendar.startOfDay(for: now)
        // Whole calendar days, then noon: a moment inside the target day even when a
        // daylight-saving change makes a day 23 or 25 hours long.
        guard let day = calendar.date(byAdding: .day, value: daysFromToday, to: today),
            let noon = calendar.date(bySettingHour: 12, minute: 0, second: 0, of: day)
        else { return [] }
        return timetable.classes(onSameDayAs: noon)
    }

    /// The first class that starts now or later.
    public func nextClass() -> ClassSession? {
        timetable.nextClass(after: now)
    }

    /// The class under way now, if any.
    public func classInProgress() -> ClassSession? {
        timetable.classInProgress(at: now)
    }

    /// The first bus leaving `stop` now or later.
    public func nextBus(from stop: String) -> BusLeg? {
        timetable.nextBus(from: stop, after: now)
    }

    /// The car park with the most free spaces. The figures are live when the timetable is fetched,
    /// so the clock does not enter into it; refetch for fresh ones.
    public func carParkWithMostFreeSlots() -> CarPark? {
        timetable.carParkWithMostFreeSlots
    }
}
