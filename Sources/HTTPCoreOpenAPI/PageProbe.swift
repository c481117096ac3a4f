import Foundation
import HTTPCore
import HTTPTypes

/// What a page walk tells the transport about the call it is making, and learns back from it:
/// the page to fetch instead of the one the generated client asked for, and the answer's next
/// link. Set for the walk's call with a task-local value, so the generated client needs no
/// parameter for a URL it cannot express.
final class PageProbe: Sendable {
    /// The probe of the page call running in this task, if any.
    @TaskLocal static var current: PageProbe?

    /// The page to fetch; `nil` for the first, which is the generated client's own request.
    let target: URL?
    private let answer = Locked<(url: URL, next: URL?)?>(nil)

    init(target: URL?) {
        self.target = target
    }

    /// The URL that answered and its `Link: <…>; rel="next"` target, once a 2xx answer came.
    var answered: (url: URL, next: URL?)? { answer.withLock { $0 } }

    /// Keeps the next link of a 2xx answer.
    func record(_ exchange: Exchange) {
        guard (200..<300).contains(exchange.response.status.code) else { return }
        let next = LinkHeader.next(in: exchange.response.headerFields, base: exchange.url)
        answer.withLock { $0 = (exchange.url, next) }
    }

    /// `request` sent to `url` instead: its method and headers, the link's scheme, authority,
    /// path and query.
    static func request(_ request: HTTPRequest, at url: URL) -> HTTPRequest {
        let parts = HTTPRequest(method: request.method, url: url)
        var moved = request
        moved.scheme = parts.scheme
        moved.authority = parts.authority
        moved.path = parts.path
        return moved
    }
}
