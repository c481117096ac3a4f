import Crypto
import Foundation
import HTTPCore
import MonashSchedule

/// The calendar `calendar serve` hands out: one iCalendar text with its `ETag` and
/// `Last-Modified`, fetched from the API again only when a request arrives and the last check is
/// older than the refresh interval, and given a new revision only when its events change.
///
/// Between changes the text is byte for byte the same (its `DTSTAMP` is the revision time, not the
/// time of the request), so a calendar app's conditional GET gets 304 however often the API is
/// asked. Car-park and bus figures change all the time but are not in the calendar, so they never
/// move the revision.
actor CalendarFeed {
    /// One revision of the calendar.
    struct Revision: Sendable, Equatable {
        /// The iCalendar text.
        var body: String
        /// A strong entity tag: the text's SHA-256, shortened.
        var etag: String
        /// When the events last changed (or the server started), in whole seconds: the calendar's
        /// `DTSTAMP` and the feed's `Last-Modified`.
        var lastModified: Date
        /// The teaching week and how many classes it has, for messages.
        var week: Int
        var classes: Int
    }

    /// What a check of the API found, for the command to report.
    enum Outcome: Sendable {
        /// Events changed: a new revision replaced the one served so far.
        case changed(Revision)
        /// The API could not be read; the last revision is still served.
        case failed(message: String, serving: Revision)
    }

    /// A failed check is tried again after this long, or after the interval if that is shorter.
    static let retryAfterFailure = Duration.seconds(60)
    /// How long a request waits for a check before it is served the last revision: well under the
    /// minute calendar apps give a feed, so a slow or silent API never fails their fetch.
    static let staleAfter = Duration.seconds(5)

    private let fetch: @Sendable () async throws -> Timetable
    private let clock: any TimeSource
    private let interval: Duration
    private let options: ICalendarOptions
    private let report: @Sendable (Outcome) -> Void
    private var latest: Revision?
    private var nextCheck: Duration?
    private var checking: Task<Revision, any Error>?
    /// When the check under way began, on the monotonic clock.
    private var checkingSince: Duration = .zero

    /// - Parameters:
    ///   - fetch: Reads the week from the API.
    ///   - interval: The API is asked at most once per interval, and only when the feed is requested.
    ///   - options: How the calendar is written; its stamp is replaced by each revision's time.
    ///   - report: Told about each change after the first revision and each failed check.
    init(
        interval: Duration,
        options: ICalendarOptions,
        clock: any TimeSource,
        report: @escaping @Sendable (Outcome) -> Void = { _ in },
        fetch: @escaping @Sendable () async throws -> Timetable
    ) {
        self.fetch = fetch
        self.clock = clock
        self.interval = interval
        self.options = options
        self.report = report
    }

    /// The revision to serve now, checking the API first when the last check is older than the
    /// interval. Requests that arrive during a check share it; once there is a revision, a check
    /// that takes longer than ``staleAfter`` goes on in the background and the request is served
    /// the last revision.
    ///
    /// - Throws: The API's error only while there is no revision at all (the first check);
    ///   afterwards a failed check keeps serving the last revision.
    func revision() async throws -> Revision {
        if let latest, let nextCheck, clock.monotonicNow() < nextCheck { return latest }
        let check = checking ?? startCheck()
        guard let latest else { return try await check.value }
        // A check already slower than the wait serves the last revision at once.
        let waited = clock.monotonicNow() - checkingSince
        guard waited < Self.staleAfter else { return latest }
        return await Self.first(of: check, or: latest, after: Self.staleAfter - waited, clock: clock)
    }

    /// Stops a check under way, so a server that is shutting down does not wait for the API.
    func stop() {
        checking?.cancel()
    }

    private func startCheck() -> Task<Revision, any Error> {
        let check = Task { try await self.check() }
        checking = check
        checkingSince = clock.monotonicNow()
        return check
    }

    /// What `check` gives if it ends within `wait`, else `fallback`; the check goes on either way.
    private static func first(
        of check: Task<Revision, any Error>,
        or fallback: Revision,
        after wait: Duration,
        clock: any TimeSource
    ) async -> Revision {
        let answered = Locked(false)
        var timer: Task<Void, Never>?
        let revision = await withCheckedContinuation { (continuation: CheckedContinuation<Revision, Never>) in
            let answer = { @Sendable (revision: Revision) in
                let first = answered.withLock { done in
                    defer { done = true }
                    return !done
                }
                guard first else { return }
                continuation.resume(returning: revision)
            }
            timer = Task {
                try? await clock.sleep(for: wait)
                answer(fallback)
            }
            Task { answer((try? await check.value) ?? fallback) }
        }
        timer?.cancel()
        return revision
    }

    private func check() async throws -> Revision {
        defer { checking = nil }
        do {
            let timetable = try await fetch()
            nextCheck = clock.monotonicNow() + interval
            return adopt(timetable)
        } catch {
            nextCheck = clock.monotonicNow() + min(interval, Self.retryAfterFailure)
            guard let latest else { throw error }
            // A check stopped because the server is shutting down is no failure of the API.
            if !Task.isCancelled { report(.failed(message: Self.message(for: error), serving: latest)) }
            return latest
        }
    }

    /// The revision for `timetable`: the current one when the calendar text would not change,
    /// else a new one stamped now (at least a second after the last, so `Last-Modified` moves).
    private func adopt(_ timetable: Timetable) -> Revision {
        if let latest, render(timetable, at: latest.lastModified) == latest.body { return latest }
        var stamp = clock.now().timeIntervalSince1970.rounded(.down)
        if let latest { stamp = max(stamp, latest.lastModified.timeIntervalSince1970 + 1) }
        let lastModified = Date(timeIntervalSince1970: stamp)
        let body = render(timetable, at: lastModified)
        let revision = Revision(
            body: body,
            etag: Self.etag(body),
            lastModified: lastModified,
            week: timetable.week,
            classes: timetable.classes.count
        )
        if latest != nil { report(.changed(revision)) }
        latest = revision
        return revision
    }

    private func render(_ timetable: Timetable, at stamp: Date) -> String {
        var options = options
        options.stamp = stamp
        return timetable.iCalendar(options)
    }

    /// `"` + the first 128 bits of the body's SHA-256 in hex + `"`: the same text always has the
    /// same tag, also across restarts.
    static func etag(_ body: String) -> String {
        let digest = SHA256.hash(data: Data(body.utf8))
        return "\"" + digest.prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
    }

    /// A sentence for the log: the API error's own message, never a type name.
    private static func message(for error: any Error) -> String {
        (error as? APIError)?.message ?? "an unexpected error"
    }
}
