import Foundation
import HTTPCore
import HTTPCoreTesting
import MonashSchedule
import Testing

@Suite("Decoding the Spec's weeks")
struct DecodingTests {
    @Test("The documented sample decodes into Swift names and Melbourne times")
    func sampleWeek() throws {
        let week = try Timetable.decode(from: Fixtures.sample)
        #expect(week.week == 8)
        #expect(week.student == Student(id: "305491", name: "Kier"))
        #expect(week.timeZone.identifier == "Australia/Melbourne")
        let session = try #require(week.classes.first)
        #expect(week.classes.count == 1)
        #expect(session.course == "FIT1031")
        #expect(session.kind == "Lecture 01")
        #expect(session.lecturer == "Arun")
        #expect(session.room == "S4")
        #expect(session.campus == "13 College Walk, Clayton")
        // March 2020 is daylight time in Melbourne: 10:00 AEDT is 23:00 UTC the day before.
        #expect(session.start == (try Fixtures.instant("2020-03-12T23:00:00Z")))
        #expect(session.end == (try Fixtures.instant("2020-03-13T01:00:00Z")))
        #expect(session.duration == 7200)
        #expect(week.parkings == [CarPark(name: "Clayton live feed", freeSlots: 645)])
        let leg = try #require(week.stops.first)
        #expect(leg.departureStop == "Clayton")
        #expect(leg.arrivalStop == "Caufield")
        #expect(leg.predictedArrival == (try Fixtures.instant("2020-03-13T06:04:05+11:00")))
    }

    @Test("The larger week decodes completely")
    func largeWeek() throws {
        let week = try Timetable.decode(from: Fixtures.large)
        #expect(week.week == 6)
        #expect(week.student.name == "Priya Sharma")
        #expect(week.classes.count == 12)
        #expect(week.parkings.count == 6)
        #expect(week.stops.count == 16)
        let suburbs = Set(week.classes.compactMap { $0.campus.split(separator: ",").last.map(String.init) })
        #expect(suburbs == [" Clayton", " Caulfield East", " Frankston", " Parkville"])
        #expect(week.classes.allSatisfy { $0.end > $0.start })
        // 2 April 2024 is still daylight time (it ends on the 7th).
        #expect(week.classes[0].start == (try Fixtures.instant("2024-04-02T09:00:00+11:00")))
        #expect(week.stops.last?.predictedArrival == (try Fixtures.instant("2024-04-02T18:05:15+11:00")))
        #expect(week.departureStops == ["Huntingdale Station", "Clayton", "Caulfield", "Peninsula"])
    }

    @Test("The time zone is configurable")
    func otherTimeZone() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let week = try Timetable.decode(from: Fixtures.sample, timeZone: utc)
        #expect(week.timeZone == utc)
        #expect(week.classes.first?.start == (try Fixtures.instant("2020-03-13T10:00:00Z")))
    }

    @Test(
        "Time formats a future server might send are read too",
        arguments: [
            ("2020-03-13T10:00:00.250", "2020-03-12T23:00:00.250Z"),
            ("2020-03-13 10:00:00", "2020-03-12T23:00:00Z"),
            ("2020-03-13T10:00:00Z", "2020-03-13T10:00:00Z"),
            ("2020-03-13T10:00:00+10:00", "2020-03-13T00:00:00Z"),
            ("2020-03-13T10:00:00-0130", "2020-03-13T11:30:00Z"),
        ]
    )
    func lenientTimes(text: String, expected: String) throws {
        let week = try Fixtures.timetable(classes: [(text, text)])
        let wanted = try #require(
            try? Date(expected, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: expected.contains(".")))
        )
        #expect(week.classes.first?.start == wanted)
    }

    @Test(
        "A malformed payload is an api_error naming the key path",
        arguments: [
            (#""room": "S4","#, "", "schedules[0].room"),
            ("2020-03-13T10:00:00", "13/03/2020 10am", "schedules[0].start_time"),
            ("2020-03-13T12:00:00", "2020-02-30T12:00:00", "schedules[0].end_time"),
            ("2020-03-13T06:04:05", "2020-03-13T25:04:05", "stops[0].predicted_arrival_date"),
            (#""slot": 645"#, #""slot": "many""#, "parkings[0].slot"),
            (#""id": "305491""#, #""id": 305491"#, "student.id"),
            (#""class": "Lecture 01""#, #""kind": "Lecture 01""#, "schedules[0].class"),
            (#""week": 8,"#, "", "week"),
            (#""week": 8,"#, #""week": 8.5,"#, "week"),
            (#""slot": 645"#, #""slot": 645.5"#, "parkings[0].slot"),
            (#""slot": 645"#, #""slot": 1e30"#, "parkings[0].slot"),
        ]
    )
    func malformed(original: String, replacement: String, keyPath: String) async throws {
        let payload = Fixtures.sampleReplacing(original, with: replacement)
        #expect(payload != Fixtures.sample, "the fixture edit must change something")
        let error = try #require(await expectAPIError(.apiError) { try Timetable.decode(from: payload) })
        #expect(error.exitCode == 7)
        #expect(error.message.contains("`\(keyPath)`"), "\(error.message)")
    }

    @Test("A body that is not JSON, or is empty, is an api_error")
    func notJSON() async throws {
        for body in [Data("<html>oops</html>".utf8), Data()] {
            await expectAPIError(.apiError) { try Timetable.decode(from: body) }
        }
    }
}
