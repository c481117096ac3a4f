public import Foundation

extension Timetable {
    /// The classes that start on the same calendar day as `day`, earliest first.
    ///
    /// - Parameters:
    ///   - day: Any moment of the wanted day.
    ///   - timeZone: The zone whose calendar day counts; `nil` (the default) uses the campus
    ///     ``timeZone``, which is what "today" means to a student on campus. A command-line tool
    ///     showing local times passes the user's zone so the day matches what it prints.
    public func classes(onSameDayAs day: Date, in timeZone: TimeZone? = nil) -> [ClassSession] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone ?? self.timeZone
        return sortedClasses.filter { calendar.isDate($0.start, inSameDayAs: day) }
    }

    /// The first class that starts at or after `date`, or `nil` when the week has no more.
    ///
    /// A class already under way is not "next"; see ``classInProgress(at:)``.
    public func nextClass(after date: Date) -> ClassSession? {
        sortedClasses.first { $0.start >= date }
    }

    /// The class under way at `date`, if any; the earliest-starting one when classes overlap.
    public func classInProgress(at date: Date) -> ClassSession? {
        sortedClasses.first { $0.isInProgress(at: date) }
    }

    /// The first bus leaving `stop` at or after `date`.
    ///
    /// Stop names match whatever their case, accents or surrounding spaces, so `"clayton"`
    /// finds `"Clayton"`.
    public func nextBus(from stop: String, after date: Date) -> BusLeg? {
        buses(from: stop).first { $0.predictedArrival >= date }
    }

    /// Every bus leg leaving `stop` (matched as in ``nextBus(from:after:)``), earliest first.
    public func buses(from stop: String) -> [BusLeg] {
        sortedStops.filter { Self.sameStop($0.departureStop, stop) }
    }

    /// The bus legs, earliest first; legs predicted at the same moment keep the API's order.
    public var sortedStops: [BusLeg] {
        stops.enumerated()
            .sorted { ($0.element.predictedArrival, $0.offset) < ($1.element.predictedArrival, $1.offset) }
            .map(\.element)
    }

    /// The classes, earliest first; classes starting together keep the API's order.
    public var sortedClasses: [ClassSession] {
        classes.enumerated()
            .sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
            .map(\.element)
    }

    /// The distinct stops buses leave from, in the order they first appear; handy for a hint
    /// when a stop name matches nothing.
    public var departureStops: [String] {
        var seen: [String] = []
        for leg in stops where !seen.contains(where: { Self.sameStop($0, leg.departureStop) }) {
            seen.append(leg.departureStop)
        }
        return seen
    }

    /// The car park with the most free spaces; the first listed wins a tie, and `nil` when there
    /// are no car parks.
    public var carParkWithMostFreeSlots: CarPark? {
        parkings.reduce(nil) { best, park in
            guard let best else { return park }
            return park.freeSlots > best.freeSlots ? park : best
        }
    }

    static func sameStop(_ name: String, _ other: String) -> Bool {
        name.trimmingCharacters(in: .whitespacesAndNewlines).compare(
            other.trimmingCharacters(in: .whitespacesAndNewlines),
            options: [.caseInsensitive, .diacriticInsensitive]
        ) == .orderedSame
    }
}
