import Foundation
import HTTPCore

extension HTTPCoreTransport {
    /// The pages of a generated list operation, followed by their `Link: <…>; rel="next"`
    /// headers, as an async sequence.
    ///
    /// ```swift
    /// let pages = transport.pages { try await api.listProjects(path: .init(accountId: 999)).ok.body.json }
    /// for try await projects in pages { … }
    /// ```
    ///
    /// `fetchPage` makes one call through this transport; the walk calls it once per page. The
    /// first call goes where the generated client sends it; each later one is sent to the
    /// previous answer's next link, with the same method and headers. Each page is a full call
    /// through the HTTPCore client (retry, auth, cache, hooks). As with HTTPCore's own
    /// ``HTTPCore/Client/paginate(_:options:)``, a next link on another origin, one that
    /// downgrades https to http, or one pointing at a page already fetched ends the walk with an
    /// `api_error` before any request is sent there.
    ///
    /// - Parameters:
    ///   - maxPages: The most pages the walk fetches.
    ///   - fetchPage: Calls the generated operation and returns the page's value (its items, say).
    public func pages<Page: Sendable>(
        maxPages: Int = 1000,
        _ fetchPage: @escaping @Sendable () async throws -> Page
    ) -> LinkPages<Page> {
        LinkPages(client: client, maxPages: maxPages, fetchPage: fetchPage)
    }
}

/// The pages of a generated list operation as an async sequence; created by
/// ``HTTPCoreTransport/pages(maxPages:_:)``. Nothing is fetched until it is iterated, and each
/// iteration is a new walk.
public struct LinkPages<Page: Sendable>: AsyncSequence, Sendable {
    /// One page's value.
    public typealias Element = Page

    /// The client whose transport the walk's page calls go through.
    let client: Client
    let maxPages: Int
    let fetchPage: @Sendable () async throws -> Page

    /// Starts a walk.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pages: self)
    }

    /// Collects every page's value, in order.
    ///
    /// - Throws: The first failed page call's error, or the `api_error` of a refused next link.
    public func collect() async throws -> [Page] {
        var all: [Page] = []
        for try await page in self { all.append(page) }
        return all
    }

    /// A walk through the pages.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let pages: LinkPages
        private var next: URL?
        private var linkGuard: LinkGuard?
        private var fetched = 0
        private var finished = false
        /// A refused next link, thrown on the call after the page that named it was handed out.
        private var refusal: APIError?

        init(pages: LinkPages) {
            self.pages = pages
        }

        /// The next page's value, or `nil` when the last page had no next link or the page limit
        /// is reached.
        ///
        /// - Throws: The page call's error, or an `api_error` for a next link the walk refuses.
        public mutating func next() async throws -> Page? {
            if let refusal {
                self.refusal = nil
                finished = true
                throw refusal
            }
            guard !finished, fetched < pages.maxPages, fetched == 0 || next != nil else { return nil }
            let probe = PageProbe(target: next, owner: pages.client)
            let page: Page
            do {
                page = try await PageProbe.$current.withValue(probe) { try await pages.fetchPage() }
            } catch {
                finished = true
                throw error
            }
            fetched += 1
            next = nil
            guard let answered = probe.answered else { return page }
            let linkGuard = self.linkGuard ?? LinkGuard(first: answered.url, redactor: pages.client.redactor)
            self.linkGuard = linkGuard
            if let link = answered.next {
                do {
                    try linkGuard.admit(link, after: answered.url)
                    next = link
                } catch {
                    refusal = error
                }
            }
            return page
        }
    }
}
