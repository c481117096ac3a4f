import Foundation

/// The state of one walk: limits, the link guard, the page being fetched ahead.
///
/// Owned by one iterator, which the async-sequence contract keeps from being used by two tasks
/// at once. When the iterator goes away (the consumer broke out of its loop), `deinit` cancels
/// the fetches still running.
final class PageCursor<Item: Sendable> {
    private let fetcher: PageFetcher<Item>
    private let options: PaginationOptions
    private let linkGuard: LinkGuard
    private var started = false
    private var finished = false
    private var pending: URL?
    private var upcoming: InFlightPage<Item>?
    private var refusal: APIError?
    private var pageCount = 0
    private var itemCount = 0
    private var trimmed = false
    private var lastNext: URL?
    private var totalCount: Int?

    init(fetcher: PageFetcher<Item>, options: PaginationOptions) {
        self.fetcher = fetcher
        self.options = options
        self.linkGuard = LinkGuard(first: fetcher.firstURL, redactor: fetcher.client.redactor)
    }

    deinit {
        if let upcoming {
            upcoming.task.cancel()
            upcoming.handoff.close().next?.task.cancel()
        }
    }

    /// What is known about the list so far. It is truncated when the server has more than was
    /// returned: a limit cut a page short, or the last page taken links to a next one that the
    /// walk did not follow. A total-count header does not decide it (a pinned last page is whole).
    var meta: ListMeta {
        ListMeta(totalCount: totalCount, truncated: trimmed || lastNext != nil, pageCount: pageCount)
    }

    /// The next page, or `nil` when the walk is over.
    func nextPage() async throws -> Page<Item>? {
        guard !finished else { return nil }
        let page: Page<Item>
        var found = PageHandoff<Item>.Outcome()
        do {
            if let fetch = upcoming {
                upcoming = nil
                (page, found) = try await take(fetch)
            } else if !started {
                started = true
                // Limits of zero ask for nothing: don't send a request to learn nothing.
                guard options.maxPages > 0, options.maxItems.map({ $0 > 0 }) ?? true else {
                    finished = true
                    return nil
                }
                (page, found) = try await fetchNow(nil)
            } else if let refusal {
                throw refusal
            } else if let pending {
                (page, found) = try await fetchNow(pending)
            } else {
                finished = true
                return nil
            }
        } catch {
            finished = true
            throw error
        }
        return accept(page, link: found.link, early: found.next)
    }

    /// Fetches the page at `url` now: in this task without prefetch, else as a fetch that may
    /// send the next page's request before this one is decoded.
    private func fetchNow(_ url: URL?) async throws -> (Page<Item>, PageHandoff<Item>.Outcome) {
        guard options.prefetch else {
            return (try await fetcher.fetch(url, index: pageCount), PageHandoff<Item>.Outcome())
        }
        return try await take(launch(url, index: pageCount))
    }

    /// Waits for a fetch the walk started earlier, now that the consumer wants its page.
    private func take(_ fetch: InFlightPage<Item>) async throws -> (Page<Item>, PageHandoff<Item>.Outcome) {
        fetch.handoff.walkArrived()
        do {
            let page = try await withTaskCancellationHandler {
                try await fetch.task.value
            } onCancel: {
                fetch.task.cancel()
            }
            return (page, fetch.handoff.close())
        } catch {
            fetch.handoff.close().next?.task.cancel()
            throw error
        }
    }

    /// Starts fetching the page at `url` in its own task. When the walk's limits allow the next
    /// page whatever this one holds (no item limit, page budget left), the fetch checks its next
    /// link as soon as the head arrives and hands it to the walk through the handoff.
    private func launch(_ url: URL?, index: Int) -> InFlightPage<Item> {
        // With an item limit (or a single page) the next page depends on the decoded items.
        let earlyLimit = options.maxItems == nil && options.page == nil ? options.maxPages : 0
        return Self.launch(url, index: index, fetcher: fetcher, linkGuard: linkGuard, earlyLimit: earlyLimit)
    }

    /// `earlyLimit`: the page count below which a fetch may start the next page early.
    private static func launch(
        _ url: URL?,
        index: Int,
        fetcher: PageFetcher<Item>,
        linkGuard: LinkGuard,
        earlyLimit: Int
    ) -> InFlightPage<Item> {
        let handoff = PageHandoff<Item> { next in
            launch(next, index: index + 1, fetcher: fetcher, linkGuard: linkGuard, earlyLimit: earlyLimit)
        }
        var observer: PageFetcher<Item>.NextLinkObserver?
        if index + 1 < earlyLimit {
            observer = { next, answered in
                guard let next else {
                    handoff.linkRead(.end)
                    return
                }
                do throws(APIError) {
                    try linkGuard.admit(next, after: answered)
                    handoff.linkRead(.admitted(next))
                } catch {
                    handoff.linkRead(.refused(error))
                }
            }
        }
        let task = Task { [observer] in try await fetcher.fetch(url, index: index, nextLink: observer) }
        return InFlightPage(task: task, handoff: handoff)
    }

    /// Counts the page against the limits and decides whether and where the walk goes on.
    /// `link` is the next link as the fetch already checked it, `early` the next page's fetch
    /// if it already started.
    private func accept(_ fetched: Page<Item>, link: NextLink?, early: InFlightPage<Item>?) -> Page<Item> {
        var page = fetched
        pageCount += 1
        fetcher.report(page)
        totalCount = page.totalCount ?? totalCount
        lastNext = page.next
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
            return page
        }
        switch link {
        case .admitted?:
            break
        case .refused(let error)?:
            refusal = error
            early?.task.cancel()
            return page
        case .end?, nil:
            do throws(APIError) {
                try linkGuard.admit(next, after: page.url)
            } catch {
                refusal = error
                return page
            }
        }
        lastNext = nil
        pending = next
        if let early {
            upcoming = early
        } else if options.prefetch {
            upcoming = launch(next, index: pageCount)
        }
        return page
    }
}
