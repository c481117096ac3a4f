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

    enum CodingKeys: String, CodingKey {
        case week, student, schedules, parkings, stops
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        week = try container.decodeWholeNumber(forKey: .week)
        student = try container.decode(WireStudent.self, forKey: .student)
        schedules = try container.decode([WireClass].self, forKey: .schedules)
        parkings = try container.decode([WireParking].self, forKey: .parkings)
        stops = try container.decode([WireStop].self, forKey: .stops)
    }
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

    enum CodingKeys: String, CodingKey {
        case name, slot
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        slot = try container.decodeWholeNumber(forKey: .slot)
    }
}

extension KeyedDecodingContainer {
    /// The whole number at `key`. Foundation reports a fraction or an overflow in an `Int` as
    /// invalid JSON with no key path, so such a number is read again to name the key.
    fileprivate func decodeWholeNumber(forKey key: Key) throws -> Int {
        do {
            return try decode(Int.self, forKey: key)
        } catch {
            guard let number = try? decode(Double.self, forKey: key) else { throw error }
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: self,
                debugDescription: "expected a whole number, found \(number)"
            )
        }
    }
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
