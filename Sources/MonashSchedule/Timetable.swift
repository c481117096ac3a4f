public import Foundation

/// A student's teaching week: classes, car-park availability and bus departures.
///
/// Every date is a real `Date`: the API's zone-less campus times are read in ``timeZone``
/// (Australia/Melbourne unless the client was told otherwise).
public struct Timetable: Sendable, Hashable {
    /// The teaching week number.
    public var week: Int
    /// Whose week it is.
    public var student: Student
    /// The week's classes, in the order the API sent them (see ``classes(onSameDayAs:in:)`` for a sorted day).
    public var classes: [ClassSession]
    /// Car parks and their free spaces when the timetable was fetched.
    public var parkings: [CarPark]
    /// Predicted bus legs between campus stops.
    public var stops: [BusLeg]
    /// The campus time zone the API's local times were read in; "today" is a day in this zone.
    public var timeZone: TimeZone

    /// Creates a timetable, for tests and previews.
    public init(
        week: Int,
        student: Student,
        classes: [ClassSession],
        parkings: [CarPark],
        stops: [BusLeg],
        timeZone: TimeZone = ScheduleClient.defaultTimeZone
    ) {
        self.week = week
        self.student = student
        self.classes = classes
        self.parkings = parkings
        self.stops = stops
        self.timeZone = timeZone
    }
}

/// The student a timetable belongs to.
public struct Student: Sendable, Hashable, Identifiable {
    /// The student number, e.g. `"305491"`; digits, but kept as text as the API sends it.
    public var id: String
    /// The student's name.
    public var name: String

    /// Creates a student.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// One class in the week: a lecture, workshop, lab and so on.
public struct ClassSession: Sendable, Hashable {
    /// When the class starts.
    public var start: Date
    /// When it ends.
    public var end: Date
    /// The unit code, e.g. `FIT1031`.
    public var course: String
    /// Which class of the unit, e.g. `Lecture 01` (the API's `class` key).
    public var kind: String
    /// Who teaches it.
    public var lecturer: String
    /// The room.
    public var room: String
    /// The campus address, e.g. `13 College Walk, Clayton`.
    public var campus: String

    /// Creates a class.
    public init(
        start: Date,
        end: Date,
        course: String,
        kind: String,
        lecturer: String,
        room: String,
        campus: String
    ) {
        self.start = start
        self.end = end
        self.course = course
        self.kind = kind
        self.lecturer = lecturer
        self.room = room
        self.campus = campus
    }

    /// How long the class lasts; zero if the API sent an end before the start.
    public var duration: TimeInterval { max(0, end.timeIntervalSince(start)) }

    /// Whether the class is under way at `date` (from its start, up to but excluding its end).
    public func isInProgress(at date: Date) -> Bool {
        start <= date && date < end
    }
}

/// A car park and how many spaces are free.
public struct CarPark: Sendable, Hashable {
    /// The car park's name.
    public var name: String
    /// Free spaces when the timetable was fetched (the API's `slot`).
    public var freeSlots: Int

    /// Creates a car park.
    public init(name: String, freeSlots: Int) {
        self.name = name
        self.freeSlots = freeSlots
    }
}

/// One predicted bus leg between two campus stops.
public struct BusLeg: Sendable, Hashable {
    /// The stop the bus leaves from (the API's `departure`).
    public var departureStop: String
    /// The stop it goes to (the API's `arrival`).
    public var arrivalStop: String
    /// When the bus is predicted to arrive (the API's `predicted_arrival_date`); the reference
    /// app shows it as the time to be at ``departureStop``.
    public var predictedArrival: Date

    /// Creates a bus leg.
    public init(departureStop: String, arrivalStop: String, predictedArrival: Date) {
        self.departureStop = departureStop
        self.arrivalStop = arrivalStop
        self.predictedArrival = predictedArrival
    }
}
