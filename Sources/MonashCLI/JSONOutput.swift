import CLISupport
import Foundation
import MonashSchedule

// The `--json` shapes (and the fields of `--format` and `--fields`): the SDK's Swift names in
// camelCase, dates as ISO 8601 with the offset of the `--time-zone` zone, the campus's by default
// (`2020-03-13T10:00:00+11:00`), lists as arrays and single things as objects.

struct ClassJSON: Encodable {
    var start: String
    var end: String
    var course: String
    var kind: String
    var lecturer: String
    var room: String
    var campus: String

    init(_ session: ClassSession, dates: DateText) {
        start = dates.iso8601(session.start)
        end = dates.iso8601(session.end)
        course = session.course
        kind = session.kind
        lecturer = session.lecturer
        room = session.room
        campus = session.campus
    }
}

struct CarParkJSON: Encodable {
    var name: String
    var freeSlots: Int

    init(_ park: CarPark) {
        name = park.name
        freeSlots = park.freeSlots
    }
}

struct BusJSON: Encodable {
    var departureStop: String
    var arrivalStop: String
    var predictedArrival: String

    init(_ leg: BusLeg, dates: DateText) {
        departureStop = leg.departureStop
        arrivalStop = leg.arrivalStop
        predictedArrival = dates.iso8601(leg.predictedArrival)
    }
}

struct StudentJSON: Encodable {
    var id: String
    var name: String
}
