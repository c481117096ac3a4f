import Foundation
import HTTPCore

extension AccountContext {
    /// Walks every page of a list each page sends inside an object (up to `maxPages`) and
    /// returns the first page's object with `list` holding every item fetched.
    func collect<Envelope: Decodable & Sendable, Item: Sendable>(
        _ endpoint: Endpoint<some Sendable>,
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
    /// item fetched that `isIncluded` keeps, at most `maxItems` (or the options' own limit).
    ///
    /// The object comes from the first page, so one page is always fetched, whatever the limit.
    /// When a page fails after others arrived, the error carries the object with the items
    /// fetched so far, for ``HTTPCore/APIError/partialEnvelope(of:)``.
    func collectEnvelopes<Envelope: Decodable & Sendable, Item: Sendable>(
        _ endpoint: Endpoint<some Sendable>,
        options: PaginationOptions?,
        maxItems: Int?,
        items: (Envelope) -> [Item],
        replacingItems: (inout Envelope, [Item]) -> Void,
        where isIncluded: (Item) -> Bool = { _ in true }
    ) async throws -> EnvelopedList<Envelope> {
        let whole = endpoint.decoding(ResponseDecoder<Envelope>.json)
        var walk = options ?? PaginationOptions(maxPages: basecamp.config.maxPages)
        let limit = [maxItems, walk.maxItems].compactMap { $0 }.min().map { max($0, 0) }
        // The walk would count envelopes, one a page; the limit counts the items inside them,
        // and with one the next page is asked for only once this one's items are counted.
        walk.maxItems = nil
        if limit != nil { walk.prefetch = false }

        var first: Envelope?
        var collected: [Item] = []
        var meta = ListMeta(totalCount: nil, truncated: false, pageCount: 0)
        var filtering = false
        func result() -> EnvelopedList<Envelope>? {
            guard var value = first else { return nil }
            replacingItems(&value, collected)
            var meta = meta
            // A filtered list's total is not the server's count.
            if filtering { meta.totalCount = nil }
            return EnvelopedList(value: value, meta: meta)
        }
        do {
            for try await page in basecamp.http.paginateWhole(prepared(whole), options: walk).pages {
                guard let envelope = page.items.first else { continue }
                if first == nil {
                    first = envelope
                    meta.totalCount = page.totalCount
                }
                meta.pageCount += 1
                meta.truncated = page.next != nil
                let all = items(envelope)
                let found = all.filter(isIncluded)
                filtering = filtering || found.count != all.count
                if let limit, collected.count + found.count >= limit {
                    let keep = limit - collected.count
                    meta.truncated = meta.truncated || found.count > keep
                    collected += found.prefix(keep)
                    break
                }
                collected += found
            }
        } catch let error as APIError {
            meta.truncated = true
            guard let partial = result() else { throw error }
            throw error.withPartialResult(partial)
        }
        guard let value = result() else {
            throw APIError.usage("The walk fetched no page: maxPages must be at least 1.")
        }
        return value
    }
}
