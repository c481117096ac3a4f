import Foundation
import HTTPCore
import HTTPTypes

/// How `calendar serve` answers a request for the feed: the calendar, or 304 when the client's
/// copy is current, following RFC 9110's rules for conditional requests (§13.2.2).
///
/// - `If-None-Match` decides when present: 304 when one of its tags (compared weakly, or `*`)
///   is the feed's `ETag`, else the full answer; `If-Modified-Since` is then ignored.
/// - Otherwise a valid `If-Modified-Since` that is not in the future and not before
///   `Last-Modified` gives 304.
///
/// A 304 carries the same `ETag`, `Last-Modified` and `Cache-Control` as the 200 would. A HEAD
/// gets the 200's headers, `Content-Length` included, without the body.
struct FeedAnswer: Equatable {
    /// The status: 200 or 304.
    var status: HTTPResponse.Status
    /// The validators, `Cache-Control`, and for a 200 the type and length.
    var headers: HTTPFields
    /// The calendar, for a 200 to GET.
    var body: String?

    /// `text/calendar` as RFC 5545 registers it, with the text's encoding.
    static let contentType = "text/calendar; charset=utf-8"

    init(status: HTTPResponse.Status, headers: HTTPFields, body: String?) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The answer to a GET or HEAD with `request`'s headers, at `now`.
    init(method: HTTPRequest.Method, request: HTTPFields, revision: CalendarFeed.Revision, now: Date) {
        var headers = HTTPFields()
        headers[.eTag] = revision.etag
        headers[.lastModified] = HTTPDate.format(revision.lastModified)
        // Apps may keep the calendar but must ask again each time, which costs a 304.
        headers[.cacheControl] = "no-cache"
        if Self.isCurrent(request: request, revision: revision, now: now) {
            self.init(status: .notModified, headers: headers, body: nil)
            return
        }
        headers[.contentType] = Self.contentType
        headers[.contentLength] = String(revision.body.utf8.count)
        self.init(status: .ok, headers: headers, body: method == .head ? nil : revision.body)
    }

    /// Whether the client's copy, as its conditional headers describe it, is `revision`.
    static func isCurrent(request: HTTPFields, revision: CalendarFeed.Revision, now: Date) -> Bool {
        let noneMatch = request[values: .ifNoneMatch]
        if !noneMatch.isEmpty {
            let tags = noneMatch.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
            return tags.contains { $0 == "*" || weak($0) == weak(revision.etag) }
        }
        guard let text = request[.ifModifiedSince], let since = HTTPDate.parse(text), since <= now else {
            return false
        }
        return revision.lastModified <= since
    }

    /// The tag without a weak marker: If-None-Match compares weakly.
    private static func weak(_ tag: String) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
    }
}
