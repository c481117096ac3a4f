import Foundation
import HTTPTypes

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
    /// ``Hooks/page(_:)`` event when the walk takes it. Page bodies are JSON arrays of `Item`,
    /// or objects holding the array under ``PaginationOptions/itemsKey`` (falling back to the
    /// operation's ``PaginationMetadata/itemsKey``). While one page is consumed the next is
    /// already being fetched, and while one is decoded the next is on its way (see
    /// ``PaginationOptions/prefetch``); memory stays around one page unless you collect.
    ///
    /// A next link on another origin, one that downgrades https to http, or one pointing at a
    /// page already fetched ends the walk with an `api_error` before any request is sent there.
    /// Nothing is lost when a walk stops: iterating hands out every item of the pages before the
    /// error, and `collect()` attaches them to the error (``APIError/partialList(of:)``).
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
        return walk(endpoint, options: options)
    }

    /// Walks a paginated list whose every page is one object holding the list beside other
    /// members (a report: the person it is about, then a page of events), handing out each
    /// page's object whole, one item a page.
    ///
    /// Pages are fetched, guarded and reported as ``paginate(_:options:)`` does; the
    /// endpoint's decoder reads each page, and `itemsKey` is not used, so the operation's
    /// metadata goes out as the operation declares it. The item is the page, so `maxItems` and a
    /// ``PageEvent``'s item count count pages here.
    public func paginateWhole<Page: Decodable & Sendable>(
        _ endpoint: Endpoint<Page>,
        options: PaginationOptions = PaginationOptions()
    ) -> Paginated<Page> {
        let page = endpoint.decoder
        return walk(
            endpoint.decoding(ResponseDecoder { body, response, json in [try page.decode(body, response, json)] }),
            options: options
        )
    }

    private func walk<Item: Sendable>(_ endpoint: Endpoint<[Item]>, options: PaginationOptions) -> Paginated<Item> {
        var endpoint = endpoint
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
    /// - Throws: ``APIError`` when a page fails or a next link is refused. Once a page has
    ///   arrived the error carries the items fetched so far, marked truncated: read them with
    ///   ``APIError/partialList(of:)``.
    public func collect(maxItems: Int? = nil) async throws -> ListResult<Item> {
        var options = options
        if let maxItems { options.maxItems = Swift.min(maxItems, options.maxItems ?? .max) }
        let cursor = PageCursor(fetcher: fetcher, options: options)
        var items: [Item] = []
        do {
            while let page = try await cursor.nextPage() {
                if items.isEmpty, let total = page.totalCount {
                    items.reserveCapacity(Swift.min(total, options.maxItems ?? total, 100_000))
                }
                items += page.items
            }
        } catch let error as APIError where cursor.meta.pageCount > 0 {
            var meta = cursor.meta
            meta.truncated = true
            throw error.withPartialList(ListResult(items: items, meta: meta))
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
