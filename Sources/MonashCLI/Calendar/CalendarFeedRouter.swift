import CLISupport
import Foundation
import HTTPCore
import Hummingbird

/// The routes of `calendar serve`: the feed (GET and HEAD), 405 for other methods on it, and `/` redirecting to it, so a URL pasted without the path
/// still subscribes.
struct CalendarFeedRouter: Sendable {
    let feed: CalendarFeed
    let path: String
    let clock: any TimeSource
    let log: FeedLog

    func build() -> Router<BasicRequestContext> {
        let router = Router()
        let path = RouterPath(self.path)
        for method in [HTTPRequest.Method.get, .head] {
            router.on(path, method: method) { request, _ in await answer(request) }
        }
        for method in [HTTPRequest.Method.post, .put, .patch, .delete] {
            router.on(path, method: method) { request, _ in
                log.request(request, .methodNotAllowed)
                return Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD"])
            }
        }
        // HEAD answers as GET does (RFC 9110 §9.3.2), for clients that probe before subscribing.
        for method in [HTTPRequest.Method.get, .head] {
            router.on("/", method: method) { request, _ in
                log.request(request, .movedPermanently)
                return Response(status: .movedPermanently, headers: [.location: self.path])
            }
        }
        return router
    }

    private func answer(_ request: Request) async -> Response {
        let revision: CalendarFeed.Revision
        do {
            revision = try await feed.revision()
        } catch {
            // Only before the first revision, which the command fetches before it listens.
            log.request(request, .serviceUnavailable)
            return Response(status: .serviceUnavailable, headers: [.retryAfter: "60"])
        }
        let answer = FeedAnswer(method: request.method, request: request.headers, revision: revision, now: clock.now())
        log.request(request, answer.status)
        let body = answer.body.map { ResponseBody(byteBuffer: ByteBuffer(string: $0)) } ?? ResponseBody()
        return Response(status: answer.status, headers: answer.headers, body: body)
    }
}

/// The lines `calendar serve` writes on stderr: each new revision, each failed check, each request.
struct FeedLog: Sendable {
    let context: CommandContext

    func report(_ outcome: CalendarFeed.Outcome) {
        switch outcome {
        case .changed(let revision):
            context.note("\(time) The timetable changed: now serving \(Self.summary(revision)).")
        case .failed(let message, let serving):
            context.note(
                "\(time) Could not refresh the timetable (\(message)); still serving the calendar of "
                    + context.dates.dayAndTime(serving.lastModified) + "."
            )
        }
    }

    func request(_ request: Request, _ status: HTTPResponse.Status) {
        context.note("\(time) \(request.method) \(request.uri.path) \(status.code) \(status.reasonPhrase)")
    }

    /// `week 8 (3 classes, ETag "…")`.
    static func summary(_ revision: CalendarFeed.Revision) -> String {
        let classes = "\(revision.classes) class\(revision.classes == 1 ? "" : "es")"
        return "week \(revision.week) (\(classes), ETag \(revision.etag))"
    }

    private var time: String {
        context.dates.time(context.now)
    }
}
