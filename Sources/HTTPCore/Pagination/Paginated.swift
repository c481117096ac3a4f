public import Foundation
public import HTTPTypes

extension Client {
    /// Walks a paginated list by its `Link: <…>; rel="next"` headers, as an async sequence of
    /// items.
    ///
    /// ```swift
    /// for try await todo in client.paginate(Endpoint<[Todo]>(.get, "todos.json")) {
    ///     print(todo.title)
    /// }
    /// let all = try await client.paginate(endpoint).collect()      // items + meta
    /// for try await page in client.paginate(endpoint).pages { … }  // page by page
    /// ```
    ///
    /// Every page is a full call through the client (retry, auth, cache, hooks), followed by a
    /// ``Hooks/page(_:)`` event. Page bodies are JSON arrays of `Item`, or objects holding the
    /// array under ``PaginationOptions/itemsKey`` (falling back to the operation's
    /// ``PaginationMetadata/itemsKey``). While one page is consumed the next is already being
    /// fetched (see ``PaginationOptions/prefetch``); memory stays around one page unless you
    /// collect.
    ///
    /// A next link on another origin, one that downgrades https to http, or one pointing at a
    /// page already fetched ends the walk with an `api_error` before any request is sent there.
    /// Nothing is fetched until the sequence is iterated; each iteration is a new walk.
    public func paginate<Item: Decodable & Sendable>(
        _ endpoint: Endpoint<[Item]>,
        options: PaginationOptions = PaginationOptions()
    ) -> Paginated<Item> {
        var endpoint = endpoint
        if let key = options.itemsKey ?? endpoint.operation.pagination?.itemsKey {
            endpoint.decoder = ResponseDecoder { body, _, json in
                guard !body.isEmpty else { throw EmptyBodyError() }
                return try ItemsEnvelopeKey.$current.withValue(key) {
                    try json.decode(ItemsEnvelope<Item>.self, from: body).items
                }
            }
        }
        if let page = options.page {
            endpoint.query.items.removeAll { $0.name == options.pageParameter }
            endpoint.query.append(options.pageParameter, page)
        }
        let headerName = options.totalCountHeader ?? endpoint.operation.pagination?.totalCountHeader
        let fetcher = PageFetcher(
            client: self,
            endpoint: endpoint,
            totalCountHeader: HTTPField.Name(headerName ?? PaginationOptions.defaultTotalCountHeader),
            hooks: configuration.hooks is NoopHooks ? nil : configuration.hooks
        )
        return Paginated(fetcher: fetcher, options: options)
    }
}

/// One page of a paginated list.
public struct Page<Item: Sendable>: Sendable {
    /// The page's items (cut short when ``PaginationOptions/maxItems`` was reached within it).
    public var items: [Item]
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// The response headers.
    public var headers: HTTPFields
    /// The page's position in this walk: 0 for the first page fetched.
    public var index: Int
    /// The URL that answered.
    public var url: URL
    /// The `next` link's target, resolved; `nil` on the last page.
    public var next: URL?
    /// The total item count from the total-count header, if the server sent it.
    public var totalCount: Int?
    /// Whether the page came from the client's cache after a 304.
    public var fromCache: Bool

    /// Creates a page.
    public init(
        items: [Item],
        status: HTTPResponse.Status,
        headers: HTTPFields,
        index: Int,
        url: URL,
        next: URL? = nil,
        totalCount: Int? = nil,
        fromCache: Bool = false
    ) {
        self.items = items
        self.status = status
        self.headers = headers
        self.index = index
        self.url = url
        self.next = next
        self.totalCount = totalCount
        self.fromCache = fromCache
    }
}

/// A paginated list as an async sequence of its items, with ``pages`` for page-by-page access
/// and ``collect(maxItems:)`` for everything at once. Created by ``Client/paginate(_:options:)``.
public struct Paginated<Item: Sendable>: AsyncSequence, Sendable {
    /// Each item, in order.
    public typealias Element = Item

    let fetcher: PageFetcher<Item>
    let options: PaginationOptions

    /// The same walk, one ``Page`` at a time.
    public var pages: Pages { Pages(fetcher: fetcher, options: options) }

    /// Starts a walk.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(cursor: PageCursor(fetcher: fetcher, options: options))
    }

    /// Fetches every page (within the limits) and returns the items with the list's metadata.
    ///
    /// - Parameter maxItems: The most items to return; the smaller of this and
    ///   ``PaginationOptions/maxItems`` applies.
    /// - Throws: ``APIError`` when a page fails or a next link is refused; the items fetched
    ///   so far are discarded.
    public func collect(maxItems: Int? = nil) async throws -> ListResult<Item> {
        var options = options
        if let maxItems { options.maxItems = Swift.min(maxItems, options.maxItems ?? .max) }
        let cursor = PageCursor(fetcher: fetcher, options: options)
        var items: [Item] = []
        while let page = try await cursor.nextPage() {
            if items.isEmpty, let total = page.totalCount {
                items.reserveCapacity(Swift.min(total, options.maxItems ?? total, 100_000))
            }
            items += page.items
        }
        return ListResult(items: items, meta: cursor.meta)
    }

    /// Iterates the items of a walk.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let cursor: PageCursor<Item>
        private var buffer: [Item] = []
        private var position = 0

        init(cursor: PageCursor<Item>) {
            self.cursor = cursor
        }

        /// The next item, fetching the next page when this one is used up; `nil` at the end.
        public mutating func next() async throws -> Item? {
            while position >= buffer.count {
                // Drop the finished page before waiting for the next, so at most one page's
                // items (plus the one being prefetched) are held.
                buffer = []
                position = 0
                guard let page = try await cursor.nextPage() else { return nil }
                buffer = page.items
            }
            defer { position += 1 }
            return buffer[position]
        }
    }

    /// A walk's pages as an async sequence.
    public struct Pages: AsyncSequence, Sendable {
        /// Each page, in order.
        public typealias Element = Page<Item>

        let fetcher: PageFetcher<Item>
        let options: PaginationOptions

        /// Starts a walk.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(cursor: PageCursor(fetcher: fetcher, options: options))
        }

        /// Iterates the pages of a walk.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let cursor: PageCursor<Item>

            /// The next page; `nil` after the last.
            public mutating func next() async throws -> Page<Item>? {
                try await cursor.nextPage()
            }
        }
    }
}

/// Fetches one page through the client; shared by the walk and its prefetch task.
struct PageFetcher<Item: Sendable>: Sendable {
    let client: Client
    let endpoint: Endpoint<[Item]>
    let totalCountHeader: HTTPField.Name?
    let hooks: (any Hooks)?

    /// The first page's URL, for the origin check; `nil` if the endpoint makes no valid URL
    /// (the first fetch then fails with the client's own error).
    var firstURL: URL? { try? client.url(for: endpoint) }

    func fetch(_ url: URL?, index: Int) async throws -> Page<Item> {
        var endpoint = endpoint
        if let url {
            endpoint.path = url.absoluteString
            endpoint.query = [:]
        }
        let response = try await client.response(endpoint)
        let links = LinkHeader.parse(response.headers[values: .link], base: response.url)
        let total = totalCountHeader.flatMap { response.headers[$0] }
            .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            .flatMap { $0 >= 0 ? $0 : nil }
        let page = Page(
            items: response.value,
            status: response.status,
            headers: response.headers,
            index: index,
            url: response.url,
            next: links.next?.target,
            totalCount: total,
            fromCache: response.fromCache
        )
        hooks?.page(
            PageEvent(
                operation: endpoint.operation,
                url: client.configuration.redactor.redact(response.url),
                index: index,
                itemCount: page.items.count,
                status: response.status.code,
                fromCache: response.fromCache,
                hasNext: page.next != nil,
                totalCount: total
            )
        )
        return page
    }

    /// Whether the response links to an earlier page (for truncation in single-page mode).
    static func hasPrevious(_ page: Page<Item>) -> Bool {
        let links = LinkHeader.parse(page.headers[values: .link], base: page.url)
        return links.first(relation: "prev") != nil || links.first(relation: "previous") != nil
    }
}

/// The state of one walk: limits, visited URLs, the prefetched page.
///
/// Owned by one iterator, which the async-sequence contract keeps from being used by two tasks
/// at once. When the iterator goes away (the consumer broke out of its loop), `deinit` cancels
/// the page being prefetched.
final class PageCursor<Item: Sendable> {
    private let fetcher: PageFetcher<Item>
    private let options: PaginationOptions
    private let origin: Origin?
    private var visited: Set<String> = []
    private var started = false
    private var finished = false
    private var pending: URL?
    private var prefetched: Task<Page<Item>, any Error>?
    private var refusal: APIError?
    private var pageCount = 0
    private var itemCount = 0
    private var trimmed = false
    private var lastNext: URL?
    private var hadPrevious = false
    private var totalCount: Int?

    init(fetcher: PageFetcher<Item>, options: PaginationOptions) {
        self.fetcher = fetcher
        self.options = options
        let first = fetcher.firstURL
        self.origin = first.map(Origin.init)
        if let first { visited.insert(Self.visitKey(first)) }
    }

    deinit {
        prefetched?.cancel()
    }

    /// What is known about the list so far.
    var meta: ListMeta {
        let moreByCount = totalCount.map { itemCount < $0 }
        let truncated: Bool
        if trimmed {
            truncated = true
        } else if options.page != nil {
            truncated = moreByCount ?? (lastNext != nil || hadPrevious)
        } else if lastNext != nil {
            truncated = moreByCount ?? true
        } else {
            truncated = false
        }
        return ListMeta(totalCount: totalCount, truncated: truncated, pageCount: pageCount)
    }

    /// The next page, or `nil` when the walk is over.
    func nextPage() async throws -> Page<Item>? {
        guard !finished else { return nil }
        let page: Page<Item>
        do {
            if let task = prefetched {
                prefetched = nil
                page = try await withTaskCancellationHandler {
                    try await task.value
                } onCancel: {
                    task.cancel()
                }
            } else if !started {
                started = true
                // Limits of zero ask for nothing: don't send a request to learn nothing.
                guard options.maxPages > 0, options.maxItems.map({ $0 > 0 }) ?? true else {
                    finished = true
                    return nil
                }
                page = try await fetcher.fetch(nil, index: 0)
            } else if let refusal {
                throw refusal
            } else if let pending {
                page = try await fetcher.fetch(pending, index: pageCount)
            } else {
                finished = true
                return nil
            }
        } catch {
            finished = true
            throw error
        }
        return accept(page)
    }

    /// Counts the page against the limits and decides whether and where the walk goes on.
    private func accept(_ fetched: Page<Item>) -> Page<Item> {
        var page = fetched
        pageCount += 1
        visited.insert(Self.visitKey(page.url))
        totalCount = page.totalCount ?? totalCount
        lastNext = page.next
        if options.page != nil { hadPrevious = PageFetcher<Item>.hasPrevious(page) }
        var limitReached = false
        if let maxItems = options.maxItems, itemCount + page.items.count >= maxItems {
            let keep = max(maxItems - itemCount, 0)
            if page.items.count > keep {
                trimmed = true
                page.items = Array(page.items.prefix(keep))
            }
            limitReached = true
        }
        itemCount += page.items.count
        pending = nil
        guard let next = page.next, options.page == nil, !limitReached, pageCount < options.maxPages else {
            if page.next == nil { lastNext = nil }
            return page
        }
        do {
            try check(next)
        } catch {
            refusal = error
            return page
        }
        lastNext = nil
        visited.insert(Self.visitKey(next))
        pending = next
        if options.prefetch {
            let fetcher = fetcher
            let index = pageCount
            prefetched = Task { try await fetcher.fetch(next, index: index) }
        }
        return page
    }

    /// Refuses a next link that leaves the origin, downgrades to http or loops.
    private func check(_ next: URL) throws(APIError) {
        let shown = fetcher.client.configuration.redactor.redact(next)
        let target = Origin(next)
        guard target.scheme == "https" || target.scheme == "http" else {
            throw Self.refusal("The server's next-page link \(shown) is not an http(s) URL; stopping the list here.")
        }
        if let origin {
            if origin.scheme == "https", target.scheme == "http" {
                throw Self.refusal(
                    "The server's next-page link \(shown) downgrades https to http; refusing to follow it."
                )
            }
            guard target == origin else {
                throw Self.refusal(
                    "The server's next-page link \(shown) points to another origin; refusing to send the request there."
                )
            }
        }
        guard !visited.contains(Self.visitKey(next)) else {
            throw Self.refusal(
                "The server's next-page link \(shown) points to a page already fetched; stopping instead of looping."
            )
        }
    }

    private static func refusal(_ message: String) -> APIError {
        .apiError(
            APIError.Details(
                message: message,
                hint:
                    "The list's links are inconsistent; report it to the API's maintainers, or fetch pages one by one."
            )
        )
    }

    private static func visitKey(_ url: URL) -> String {
        let text = url.absoluteString
        return text.firstIndex(of: "#").map { String(text[..<$0]) } ?? text
    }
}

/// Scheme, host and port, as compared for "same origin" (RFC 6454).
struct Origin: Hashable {
    var scheme: String
    var host: String
    var port: Int?

    init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        host = url.host?.lowercased() ?? ""
        switch (scheme, url.port) {
        case ("https", 443?), ("http", 80?): port = nil
        default: port = url.port
        }
    }
}

/// The items key for ``ItemsEnvelope``, set around one synchronous decode.
enum ItemsEnvelopeKey {
    @TaskLocal static var current: String?
}

/// A page object whose items sit under a key chosen at run time.
struct ItemsEnvelope<Item: Decodable>: Decodable {
    var items: [Item]

    init(from decoder: any Decoder) throws {
        let key = ItemsEnvelopeKey.current ?? "items"
        let container = try decoder.container(keyedBy: DynamicKey.self)
        // With a snake_case key strategy the decoder reports converted names, so accept both.
        let converted = Self.camelCased(key)
        guard
            let codingKey = container.allKeys.first(where: { $0.stringValue == key })
                ?? container.allKeys.first(where: { $0.stringValue == converted })
        else {
            throw DecodingError.keyNotFound(
                DynamicKey(stringValue: key),
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "The page has no \"\(key)\" property holding its items."
                )
            )
        }
        items = try container.decode([Item].self, forKey: codingKey)
    }

    private static func camelCased(_ key: String) -> String {
        let parts = key.split(separator: "_", omittingEmptySubsequences: true)
        guard let first = parts.first else { return key }
        return String(first) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    struct DynamicKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            return nil
        }
    }
}
