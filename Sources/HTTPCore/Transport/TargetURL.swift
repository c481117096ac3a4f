import Foundation
import HTTPTypes

/// The URL a request's pseudo-header fields name, parsed once for a target that repeats.
///
/// Parsing a URL costs several microseconds on Linux, a measurable share of a loopback round
/// trip, and a client mostly sends the same target again: a poll, a revalidation, the next
/// attempt of a retried request. So the most recent target and its URL are kept, and a request
/// with the same scheme, authority and path gets that URL without a parse. The URL depends on
/// nothing else (CONNECT and OPTIONS, which can have none, are always parsed).
enum TargetURL {
    private struct Entry: Sendable {
        var scheme: String
        var authority: String
        var path: String
        var url: URL
    }

    private static let last = Locked<Entry?>(nil)

    /// The URL of `request`, or nil when its fields make none.
    static func of(_ request: HTTPRequest) -> URL? {
        guard request.method != .connect, request.method != .options,
            let scheme = request.scheme, let authority = request.authority, let path = request.path
        else { return request.url }
        let remembered = last.withLock { entry -> URL? in
            guard let entry, entry.path == path, entry.authority == authority, entry.scheme == scheme else {
                return nil
            }
            return entry.url
        }
        if let remembered { return remembered }
        guard let url = request.url else { return nil }
        last.withLock { $0 = Entry(scheme: scheme, authority: authority, path: path, url: url) }
        return url
    }
}
