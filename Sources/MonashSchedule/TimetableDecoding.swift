public import Foundation
import HTTPCore

extension Timetable {
    /// Decodes the API's JSON, reading its zone-less times in `timeZone`.
    ///
    /// Useful for a payload an app stored earlier; ``ScheduleClient/timetable()`` does this for
    /// every response.
    ///
    /// - Throws: ``HTTPCore/APIError/apiError(_:)`` whose message names the key path that failed,
    ///   such as `schedules[0].start_time`.
    public static func decode(from data: Data, timeZone: TimeZone = ScheduleClient.defaultTimeZone) throws -> Timetable
    {
        do {
            return try decodeWire(data, timeZone: timeZone)
        } catch {
            let message = DecodingFailure.describe(error, body: data)
            throw APIError.apiError(APIError.Details(message: message, cause: SendableDescription(error)))
        }
    }

    /// Decodes without wrapping the `DecodingError`, so the client can add the response's status
    /// and request id when it wraps it.
    static func decodeWire(_ data: Data, timeZone: TimeZone) throws -> Timetable {
        guard !data.isEmpty else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "The response had no body.")
            )
        }
        let wire = try JSONDecoder().decode(WireWeek.self, from: data)
        return Timetable(
            week: wire.week,
            student: Student(id: wire.student.id, name: wire.student.name),
            classes: wire.schedules.map { item in
                let times = LocalDateTime.span(item.startTime, item.endTime, in: timeZone)
                return ClassSession(
                    start: times.start,
                    end: times.end,
                    course: item.course,
                    kind: item.kind,
                    lecturer: item.lecturer,
                    room: item.room,
                    campus: item.campus
                )
            },
            parkings: wire.parkings.map { CarPark(name: $0.name, freeSlots: $0.slot) },
            stops: wire.stops.map { leg in
                BusLeg(
                    departureStop: leg.departure,
                    arrivalStop: leg.arrival,
                    predictedArrival: leg.predictedArrivalDate.date(in: timeZone)
                )
            },
            timeZone: timeZone
        )
    }
}

// The wire shapes mirror Spec/MonashSchedule/openapi.yaml key for key. Their coding keys are the
// JSON names, so a decoding error's path reads exactly as the payload does.

private struct WireWeek: Decodable {
    var week: Int
    var student: WireStudent
    var schedules: [WireClass]
    var parkings: [WireParking]
    var stops: [WireStop]
}

private struct WireStudent: Decodable {
    var id: String
    var name: String
}

private struct WireClass: Decodable {
    var startTime: LocalDateTime
    var endTime: LocalDateTime
    var course: String
    var kind: String
    var lecturer: String
    var room: String
    var campus: String

    enum CodingKeys: String, CodingKey {
        case startTime = "start_time"
        case endTime = "end_time"
        case course
        case kind = "class"
        case lecturer
        case room
        case campus
    }
}

private struct WireParking: Decodable {
    var name: String
    var slot: Int
}

private struct WireStop: Decodable {
    var departure: String
    var arrival: String
    var predictedArrivalDate: LocalDateTime

    enum CodingKeys: String, CodingKey {
        case departure
        case arrival
        case predictedArrivalDate = "predicted_arrival_date"
    }
}
