import Foundation
import HTTPCore

extension AccountContext {
    /// Walks every page of a list each page sends inside an object (up to `maxPages`) and
    /// returns the first page's object with `list` holding every item fetched.
    func collect<Envelope: Decodable & Sendable, Item: Sendable>(
        _ endpoint: Endpoint<[Item]>,
        in list: WritableKeyPath<Envelope, [Item]>,
        maxItems: Int?
    ) async throws -> EnvelopedList<Envelope> {
        try await collectEnvelopes(
            endpoint,
            options: nil,
            maxItems: maxItems,
            items: { $0[keyPath: list] },
            replacingItems: { $0[keyPath: list] = $1 }
        )
    }

    /// Walks the pages of `endpoint`, reading each page whole as an `Envelope`, and returns the
    /// first one with its items (read by `items`, set by `replacingItems`) replaced by every
    /// item fetched, at most `maxItems` (or the options' own limit).
    ///
    /// When a page fails after others arrived, the error carries the items fetched so far for
    /// ``APIError/partialList(of:)``, as ``Paginated/collect(maxItems:)`` does.
    func collectEnvelopes<Envelope: Decodable & Sendable, Item: Sendable>(
        _ endpoint: Endpoint<[Item]>,
        options: PaginationOptions?,
        maxItems: Int?,
        items: (Envelope) -> [Item],
        replacingItems: (inout Envelope, [Item]) -> Void
    ) async throws -> EnvelopedList<Envelope> {
        let whole = Endpoint<Envelope>(
            endpoint.method,
            endpoint.path,
            query: endpoint.query,
            headers: endpoint.headers,
            operation: endpoint.operation,
            decoder: .json
        )
        var walk = options ?? PaginationOptions(maxPages: basecamp.config.maxPages)
        let limit = [maxItems, walk.maxItems].compactMap { $0 }.min()
        // The walk would count envelopes, one a page; the limit counts the items inside them, and
        // no page past it is fetched, as a walk with `maxItems` fetches none.
        walk.maxItems = nil
        if limit != nil { walk.prefetch = false }

        var first: Envelope?
        var collected: [Item] = []
        var meta = ListMeta(totalCount: nil, truncated: false, pageCount: 0)
        do {
            for try await page in basecamp.http.paginateWhole(prepared(whole), options: walk).pages {
                guard let envelope = page.items.first else { continue }
                if first == nil {
                    first = envelope
                    meta.totalCount = page.totalCount
                }
                meta.pageCount += 1
                meta.truncated = page.next != nil
                let found = items(envelope)
                if let limit, collected.count + found.count >= limit {
                    let keep = max(limit - collected.count, 0)
                    meta.truncated = meta.truncated || found.count > keep
                    collected += found.prefix(keep)
                    break
                }
                collected += found
            }
        } catch let error as APIError where first != nil {
            meta.truncated = true
            throw error.withPartialList(ListResult(items: collected, meta: meta))
        }
        guard var value = first else {
            throw APIError.usage("The walk fetched no page: maxPages must be at least 1.")
        }
        replacingItems(&value, collected)
        return EnvelopedList(value: value, meta: meta)
    }
}
