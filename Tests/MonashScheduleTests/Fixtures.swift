import Foundation
import HTTPCore
import MonashSandbox
import MonashSchedule
import Testing

enum Fixtures {
    static let melbourne = ScheduleClient.defaultTimeZone
    static let sample = Data(MonashSpecPayloads.sampleWeek.utf8)
    static let large = Data(MonashSpecPayloads.largeWeek.utf8)

    /// An instant written as ISO 8601 with an explicit offset, for expectations.
    static func instant(_ text: String) throws -> Date {
        try #require(try? Date(text, strategy: .iso8601), "bad expectation \(text)")
    }

    /// ``week(classes:buses:parkings:)`` decoded as the SDK decodes it.
    static func timetable(
        classes: [(String, String)] = [],
        buses: [String] = [],
        parkings: [(String, Int)] = [],
        timeZone: TimeZone = ScheduleClient.defaultTimeZone
    ) throws -> Timetable {
        try Timetable.decode(from: week(classes: classes, buses: buses, parkings: parkings), timeZone: timeZone)
    }

    /// A payload with the given class times (start, end) and bus times, everything else filler.
    static func week(classes: [(String, String)] = [], buses: [String] = [], parkings: [(String, Int)] = []) -> Data {
        let classItems = classes.enumerated().map { index, times in
            """
            {"start_time": "\(times.0)", "end_time": "\(times.1)", "course": "FIT\(1000 + index)", \
            "class": "Lecture 0\(index + 1)", "lecturer": "Lecturer \(index)", "room": "R\(index)", \
            "campus": "Clayton"}
            """
        }
        let busItems = buses.map {
            #"{"departure": "Clayton", "arrival": "Caulfield", "predicted_arrival_date": "\#($0)"}"#
        }
        let parkingItems = parkings.map { #"{"name": "\#($0.0)", "slot": \#($0.1)}"# }
        return Data(
            """
            {"week": 1, "student": {"id": "1", "name": "Test"}, \
            "schedules": [\(classItems.joined(separator: ", "))], \
            "parkings": [\(parkingItems.joined(separator: ", "))], \
            "stops": [\(busItems.joined(separator: ", "))]}
            """.utf8
        )
    }

    /// The sample payload with `original` replaced by `replacement`, to break one thing at a time.
    static func sampleReplacing(_ original: String, with replacement: String) -> Data {
        Data(MonashSpecPayloads.sampleWeek.replacingOccurrences(of: original, with: replacement).utf8)
    }
}
