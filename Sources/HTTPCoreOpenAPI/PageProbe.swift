import Foundation
import HTTPCore
import HTTPTypes

/// What a page walk tells the transport about the call it is making, and learns back from it:
/// the page to fetch instead of the one the generated client asked for, and the answer's next
/// link. Set for the walk's call with a task-local value, so the generated client needs no
/// parameter for a URL it cannot express.
///
/// Every call in the walk's task sees the task-local, so only one may take it: the first call
/// through the client that started the walk (``claim(by:)``). Another client's call, or a second
/// call, is sent where it was meant to go and teaches the walk nothing.
final class PageProbe: Sendable {
    /// The probe of the page call running in this task, if any.
    @TaskLocal static var current: PageProbe?

    /// The page to fetch; `nil` for the first, which is the generated client's own request.
    let target: URL?
    /// The client whose transport started the walk.
    private let owner: ObjectIdentifier
    private let claimed = Locked(false)
    private let answer = Locked<(url: URL, next: URL?)?>(nil)

    init(target: URL?, owner: Client) {
        self.target = target
        self.owner = ObjectIdentifier(owner)
    }

    /// Whether the call `client` is about to send is the walk's page call: the first one through
    /// the walk's own client.
    func claim(by client: Client) -> Bool {
        guard ObjectIdentifier(client) == owner else { return false }
        return claimed.withLock { taken in
            defer { taken = true }
            return !taken
        }
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
