import Basecamp
import Foundation
import HTTPCore

extension OperationRunner {
    /// A list walked for `--project`: the items in the project, with what the walk saw.
    struct ProjectList {
        /// The project's items, at most the `--limit`.
        var result: ListResult<JSONValue>
        /// The error that stopped the walk after some pages, if one did.
        var stopped: APIError?
        /// Whether the walk read the whole list and found items, none of them in the project.
        var foundOnlyOthers: Bool
    }

    /// Walks the list keeping the items in `project`, until `limit` of them are found, one
    /// more shows there are others, or the pages run out.
    ///
    /// The filter is applied before the limit, page by page: `--limit 5` means five of the
    /// project's items, however many of the account's come first.
    func collect(_ list: ListCall, on account: AccountClient, inProject project: Int64) async throws -> ProjectList {
        let (limit, page) = (list.limit, list.page)
        let pages = try account.performPaginated(
            list.operation,
            pathParameters: list.path,
            query: list.query,
            options: options(for: list, limitingItems: false)
        )
        .pages
        var kept: [JSONValue] = []
        var pageCount = 0
        var sawItems = false
        var next: URL?
        var stopped: APIError?
        do {
            for try await page in pages {
                pageCount += 1
                sawItems = sawItems || !page.items.isEmpty
                next = page.next
                kept += page.items.filter { Self.belongs($0, to: project) }
                if let limit, kept.count > limit { break }
            }
        } catch let error as APIError where pageCount > 0 {
            stopped = error
        }
        let overLimit = limit.map { kept.count > $0 } ?? false
        if let limit { kept = Array(kept.prefix(limit)) }
        // More of the list was left unread: cut short by --max-pages, an error or the limit.
        let truncated = overLimit || stopped != nil || (next != nil && page == nil)
        let meta = ListMeta(totalCount: nil, truncated: truncated, pageCount: pageCount)
        return ProjectList(
            result: ListResult(items: kept, meta: meta),
            stopped: stopped,
            foundOnlyOthers: kept.isEmpty && sawItems && !truncated && page == nil
        )
    }
}
