import Foundation
import HTTPCore
import HTTPTypes
import Testing

@testable import MonashCLI

/// `calendar serve`'s conditional GETs, as RFC 9110 §13.2.2 orders them.
@Suite("calendar serve: 200 or 304")
struct FeedAnswerTests {
    static let revision = CalendarFeed.Revision(
        body: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",
        etag: "\"0123456789abcdef0123456789abcdef\"",
        lastModified: Date(timeIntervalSince1970: 1_720_000_000),
        week: 3,
        classes: 0
    )
    static let lastModified = "Wed, 03 Jul 2024 09:46:40 GMT"
    static let now = Date(timeIntervalSince1970: 1_720_003_600)

    func answer(_ fields: [(HTTPField.Name, String)], method: HTTPRequest.Method = .get) -> FeedAnswer {
        var headers = HTTPFields()
        for (name, value) in fields { headers.append(HTTPField(name: name, value: value)) }
        return FeedAnswer(method: method, request: headers, revision: Self.revision, now: Self.now)
    }

    @Test("No conditions: 200 with the calendar, its type, length and validators, and no-cache")
    func plain() {
        let answer = answer([])
        #expect(answer.status == .ok)
        #expect(answer.body == Self.revision.body)
        #expect(answer.headers[.contentType] == "text/calendar; charset=utf-8")
        #expect(answer.headers[.contentLength] == "32")
        #expect(answer.headers[.eTag] == Self.revision.etag)
        #expect(answer.headers[.lastModified] == Self.lastModified)
        #expect(answer.headers[.cacheControl] == "no-cache")
    }

    @Test("HEAD: the 200's headers without the body")
    func head() {
        let answer = answer([], method: .head)
        #expect(answer.status == .ok && answer.body == nil)
        #expect(answer.headers[.contentLength] == "32")
    }

    @Test(
        "If-None-Match that names the ETag (weakly, in a list, or *) is 304 with the validators",
        arguments: [
            "\"0123456789abcdef0123456789abcdef\"", "W/\"0123456789abcdef0123456789abcdef\"",
            "\"other\", \"0123456789abcdef0123456789abcdef\"", "*",
        ]
    )
    func noneMatch(value: String) {
        let answer = answer([(.ifNoneMatch, value)])
        #expect(answer.status == .notModified)
        #expect(answer.body == nil)
        #expect(answer.headers[.eTag] == Self.revision.etag)
        #expect(answer.headers[.lastModified] == Self.lastModified)
        #expect(answer.headers[.contentType] == nil)
    }

    @Test("If-None-Match that does not match is 200, whatever If-Modified-Since says")
    func noneMatchWins() {
        let answer = answer([(.ifNoneMatch, "\"stale\""), (.ifModifiedSince, Self.lastModified)])
        #expect(answer.status == .ok)
        #expect(answer.body == Self.revision.body)
    }

    @Test(
        "If-Modified-Since: 304 at or after Last-Modified; 200 before it, in the future or unreadable",
        arguments: [
            (lastModified, HTTPResponse.Status.notModified), ("Wed, 03 Jul 2024 10:00:00 GMT", .notModified),
            ("Wednesday, 03-Jul-24 09:46:40 GMT", .notModified), ("Wed, 03 Jul 2024 09:46:39 GMT", .ok),
            ("Thu, 04 Jul 2024 09:46:40 GMT", .ok), ("yesterday", .ok), ("", .ok),
        ]
    )
    func modifiedSince(value: String, status: HTTPResponse.Status) {
        #expect(answer([(.ifModifiedSince, value)]).status == status)
    }

    @Test("HTTP dates are written as IMF-fixdate and read back")
    func httpDates() {
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 784_111_777)) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 1_720_000_000.9)) == Self.lastModified)
        #expect(HTTPDate.parse(Self.lastModified) == Self.revision.lastModified)
    }
}
