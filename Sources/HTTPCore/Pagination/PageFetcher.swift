import Foundation
import HTTPTypes

/// Fetches one page through the client; shared by a walk and the fetches it starts ahead.
struct PageFetcher<Item: Sendable>: Sendable {
    let client: Client
    let endpoint: Endpoint<[Item]>
    let totalCountHeader: HTTPField.Name?
    let hooks: (any Hooks)?

    /// The first page's URL, for the origin check; `nil` if the endpoint makes no valid URL
    /// (the first fetch then fails with the client's own error).
    var firstURL: URL? { try? client.url(for: endpoint) }

    /// Called with a page's `next` link target (`nil` when it has none) and the URL that
    /// answered, as soon as the response head is in and before the body is decoded.
    typealias NextLinkObserver = @Sendable (_ next: URL?, _ answered: URL) -> Void

    /// Fetches the page at `url` (the endpoint's own URL when `nil`), telling `observer` its
    /// next link before the body is decoded.
    func fetch(_ url: URL?, index: Int, nextLink observer: NextLinkObserver? = nil) async throws -> Page<Item> {
        var endpoint = endpoint
        if let url {
            endpoint.path = url.absoluteString
            endpoint.query = [:]
        }
        let reader = NextLinkReader(observer: observer)
        let response = try await client.response(endpoint, through: reader)
        let next =
            reader.found ?? LinkHeader.target(of: "next", in: response.headers[values: .link], base: response.url)
        let total = totalCountHeader.flatMap { response.headers[$0] }
            .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            .flatMap { $0 >= 0 ? $0 : nil }
        return Page(
            items: response.value,
            status: response.status,
            headers: response.headers,
            index: index,
            url: response.url,
            next: next,
            totalCount: total,
            fromCache: response.fromCache
        )
    }

    /// Tells the hooks that the walk took `page`; called by the walk, so events come in page
    /// order even when a later page's fetch finishes first.
    func report(_ page: Page<Item>) {
        hooks?.page(
            PageEvent(
                operation: endpoint.operation,
                url: client.redactor.redact(page.url),
                index: page.index,
                itemCount: page.items.count,
                status: page.status.code,
                fromCache: page.fromCache,
                hasNext: page.next != nil,
                totalCount: page.totalCount
            )
        )
    }
}

/// The stage a page's call runs around the client's pipeline: reads a 2xx answer's `next` link
/// from its head, after every retry and before the client decodes the body, so the walk can
/// send the next page's request while this one is decoded.
private final class NextLinkReader: Middleware {
    private let observer: (@Sendable (_ next: URL?, _ answered: URL) -> Void)?
    private let link = Locked<URL??>(nil)

    init(observer: (@Sendable (_ next: URL?, _ answered: URL) -> Void)?) {
        self.observer = observer
    }

    /// The link the answer's head named, `.some(nil)` for none; `nil` when no 2xx answer came.
    var found: URL?? { link.withLock { $0 } }

    func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        let result = try await next(request, body, context)
        if (200..<300).contains(result.response.status.code) {
            let next = LinkHeader.target(of: "next", in: result.response.headerFields[values: .link], base: result.url)
            // Told once: a middleware that sends the page again must not start a second walk
            // onward, nor have the walk refuse its own next page as already fetched.
            let first = link.withLock { link in
                defer { link = .some(next) }
                return link == nil
            }
            if first { observer?(next, result.url) }
        }
        return result
    }
}
