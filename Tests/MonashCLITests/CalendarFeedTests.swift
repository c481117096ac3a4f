import Foundation
import HTTPCore
import HTTPCoreTesting
import MonashSchedule
import Testing

@testable import MonashCLI

/// The feed behind `calendar serve`, without HTTP: when the API is asked, and when the calendar
/// gets a new revision (and so a new ETag and Last-Modified).
@Suite("calendar serve: the feed's refresh and revisions")
struct CalendarFeedTests {
    /// Answers each fetch with the next week in `weeks` (the last one again when they run out),
    /// or throws where the entry is nil; counts the fetches.
    /// With `held`, each fetch waits until ``release()``.
    final class API: Sendable {
        private let state: Locked<(weeks: [Timetable?], fetches: Int, held: Bool, cancelled: Int)>
        init(_ weeks: [Timetable?], held: Bool = false) { state = Locked((weeks, 0, held, 0)) }
        var fetches: Int { state.withLock { $0.fetches } }
        /// Fetches that ended because their task was cancelled.
        var cancelled: Int { state.withLock { $0.cancelled } }
        func release() { state.withLock { $0.held = false } }
        func hold() { state.withLock { $0.held = true } }
        func fetch() async throws -> Timetable {
            let week = state.withLock { state -> Timetable? in
                state.fetches += 1
                let index = min(state.fetches, state.weeks.count) - 1
                return state.weeks[index]
            }
            await waitUntil { !state.withLock { $0.held } || Task.isCancelled }
            if Task.isCancelled {
                state.withLock { $0.cancelled += 1 }
                throw CancellationError()
            }
            guard let week else {
                throw APIError.network(APIError.Details(message: "The connection was refused."))
            }
            return week
        }
    }

    final class Reports: Sendable {
        private let outcomes = Locked<[CalendarFeed.Outcome]>([])
        func add(_ outcome: CalendarFeed.Outcome) { outcomes.withLock { $0.append(outcome) } }
        var changes: Int {
            outcomes.withLock { $0.filter { if case .changed = $0 { true } else { false } }.count }
        }
        var failures: [String] {
            outcomes.withLock {
                $0.compactMap { if case .failed(let message, _) = $0 { message } else { nil } }
            }
        }
    }

    static let start = Date(timeIntervalSince1970: 1_720_000_000.75)

    static func week(classAt start: String = "2024-07-15T09:00:00", freeSlots: Int = 10) throws -> Timetable {
        try Timetable.decode(
            from: Data(
                """
                {"week": 3, "student": {"id": "305491", "name": "Kier"}, "schedules": [{"start_time": "\(start)", \
                "end_time": "\(start.replacingOccurrences(of: "T09", with: "T10"))", "course": "FIT1031", \
                "class": "Lecture 01", "lecturer": "Arun", "room": "S4", "campus": "Clayton"}], \
                "parkings": [{"name": "North", "slot": \(freeSlots)}], "stops": []}
                """.utf8
            )
        )
    }

    func feed(_ api: API, clock: TestClock, reports: Reports = Reports()) -> CalendarFeed {
        CalendarFeed(
            interval: .seconds(900),
            options: ICalendarOptions(refreshInterval: .seconds(900)),
            clock: clock,
            report: { reports.add($0) },
            fetch: { try await api.fetch() }
        )
    }

    @Test("The first revision: the calendar stamped with the start time, to the second, and a strong ETag")
    func first() async throws {
        let clock = TestClock(start: Self.start, mode: .manual)
        let reports = Reports()
        let revision = try await feed(API([try Self.week()]), clock: clock, reports: reports).revision()
        #expect(revision.lastModified == Date(timeIntervalSince1970: 1_720_000_000))
        #expect(revision.body.contains("\r\nDTSTAMP:20240703T094640Z\r\n"))
        #expect(revision.body.contains("\r\nREFRESH-INTERVAL;VALUE=DURATION:PT15M\r\n"))
        #expect(revision.etag == CalendarFeed.etag(revision.body))
        #expect(revision.etag.count == 34 && revision.etag.hasPrefix("\"") && revision.etag.hasSuffix("\""))
        #expect((revision.week, revision.classes) == (3, 1))
        #expect(reports.changes == 0, "the first revision is not a change")
    }

    @Test("Within the interval the API is not asked; after it, once; unchanged classes keep the revision")
    func interval() async throws {
        let clock = TestClock(start: Self.start, mode: .manual)
        let api = API([try Self.week(freeSlots: 10), try Self.week(freeSlots: 3)])
        let reports = Reports()
        let feed = feed(api, clock: clock, reports: reports)
        let first = try await feed.revision()
        clock.advance(by: .seconds(899))
        #expect(try await feed.revision() == first)
        #expect(api.fetches == 1)
        clock.advance(by: .seconds(1))
        // The car park's figure changed; the calendar did not.
        #expect(try await feed.revision() == first)
        #expect(api.fetches == 2)
        #expect(try await feed.revision() == first)
        #expect(api.fetches == 2)
        #expect(reports.changes == 0)
    }

    @Test("A moved class is a new revision: new ETag, later Last-Modified and DTSTAMP, same UID, higher SEQUENCE")
    func changed() async throws {
        let clock = TestClock(start: Self.start, mode: .manual)
        let api = API([try Self.week(), try Self.week(classAt: "2024-07-17T09:00:00")])
        let reports = Reports()
        let feed = feed(api, clock: clock, reports: reports)
        let first = try await feed.revision()
        clock.advance(by: .seconds(3600))
        let second = try await feed.revision()
        #expect(second.etag != first.etag)
        #expect(second.lastModified == first.lastModified.addingTimeInterval(3600))
        #expect(second.body.contains("\r\nDTSTAMP:20240703T104640Z\r\n"))
        func value(_ name: String, _ body: String) -> String? {
            body.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
                .first { $0.hasPrefix(name + ":") }
        }
        #expect(value("UID", second.body) == value("UID", first.body))
        #expect(value("SEQUENCE", second.body) == "SEQUENCE:\(28_666_666 + 60)")
        #expect(value("SEQUENCE", first.body) == "SEQUENCE:28666666")
        #expect(reports.changes == 1)
    }

    @Test("A change within the same second still moves Last-Modified, so If-Modified-Since cannot hide it")
    func sameSecond() async throws {
        let clock = TestClock(start: Self.start, mode: .manual)
        let api = API([try Self.week(), try Self.week(classAt: "2024-07-17T09:00:00")])
        let feed = CalendarFeed(
            interval: .zero,
            options: ICalendarOptions(),
            clock: clock,
            fetch: { try await api.fetch() }
        )
        let first = try await feed.revision()
        let second = try await feed.revision()
        #expect(second.lastModified == first.lastModified.addingTimeInterval(1))
    }

    @Test("A failed check keeps serving the last revision, is reported, and is tried again after a minute")
    func failure() async throws {
        let clock = TestClock(start: Self.start, mode: .manual)
        let api = API([try Self.week(), nil, try Self.week()])
        let reports = Reports()
        let feed = feed(api, clock: clock, reports: reports)
        let first = try await feed.revision()
        clock.advance(by: .seconds(900))
        #expect(try await feed.revision() == first)
        #expect(reports.failures == ["The connection was refused."])
        clock.advance(by: .seconds(59))
        _ = try await feed.revision()
        #expect(api.fetches == 2)
        clock.advance(by: .seconds(1))
        #expect(try await feed.revision() == first)
        #expect(api.fetches == 3)
        #expect(reports.changes == 0)
    }

    /// A feed with a first revision, then a request after the interval whose check the API holds:
    /// the pieces, the first revision and the waiting request.
    private func checkHeldAtTheAPI(
        _ weeks: [Timetable]
    ) async throws -> (
        TestClock, API, Reports, CalendarFeed, CalendarFeed.Revision, Task<CalendarFeed.Revision, any Error>
    ) {
        let clock = TestClock(start: Self.start, mode: .manual)
        let api = API(weeks)
        let reports = Reports()
        let feed = feed(api, clock: clock, reports: reports)
        let first = try await feed.revision()
        api.hold()
        clock.advance(by: .seconds(900))
        let waiting = Task { try await feed.revision() }
        #expect(await waitUntil { api.fetches == 2 })
        return (clock, api, reports, feed, first, waiting)
    }

    @Test(
        "A check slower than 5 s goes on in the background: the request gets the last revision, the next the new one",
        .timeLimit(.minutes(1))
    )
    func slowCheck() async throws {
        let (clock, api, reports, feed, first, waiting) = try await checkHeldAtTheAPI(
            [try Self.week(), try Self.week(classAt: "2024-07-17T09:00:00")]
        )
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: CalendarFeed.staleAfter)
        #expect(try await waiting.value == first)
        // Requests meanwhile share the check under way rather than starting another, and get the
        // last revision at once: the check has already taken longer than they would wait.
        #expect(try await feed.revision() == first)
        #expect(api.fetches == 2)
        api.release()
        #expect(await waitUntil { reports.changes == 1 })
        #expect(try await feed.revision() != first)
        #expect(api.fetches == 2)
    }

    @Test("Stopping the feed ends a check under way without reporting a failure", .timeLimit(.minutes(1)))
    func stopDuringCheck() async throws {
        let (_, api, reports, feed, first, waiting) = try await checkHeldAtTheAPI([try Self.week()])
        await feed.stop()
        #expect(try await waiting.value == first)
        #expect(api.cancelled == 1)
        #expect(reports.failures.isEmpty)
    }

    @Test("Before any revision, a failed check is the API's error")
    func firstFailure() async throws {
        let feed = feed(API([nil]), clock: TestClock(start: Self.start, mode: .manual))
        await #expect(throws: APIError.self) { try await feed.revision() }
    }

    @Test("Requests that arrive together share one check")
    func sharedCheck() async throws {
        let clock = TestClock(start: Self.start, mode: .manual)
        let api = API([try Self.week()], held: true)
        let feed = feed(api, clock: clock)
        let revisions = try await withThrowingTaskGroup(of: CalendarFeed.Revision.self) { group in
            for _ in 0..<8 { group.addTask { try await feed.revision() } }
            // Every request arrives while the first check is still waiting for the API.
            await waitUntil { api.fetches > 0 }
            for _ in 0..<1000 { await Task.yield() }
            api.release()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(revisions.map(\.etag)).count == 1)
        #expect(api.fetches == 1)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("serve fails with the API's exit code when the first fetch fails, before it listens")
    func firstFetchFailsTheCommand() async throws {
        try await withBrokenService { baseURL in
            let result = await monash(["--base-url", baseURL, "--no-retry", "calendar", "serve", "--port", "0"])
            #expect(result.exitCode == 7, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(!result.stderr.contains("Subscribe with"))
        }
    }
}
