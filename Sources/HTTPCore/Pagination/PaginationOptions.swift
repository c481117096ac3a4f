/// How an operation's list responses page, as its Spec says; read by ``Client/paginate(_:options:)``.
public struct PaginationMetadata: Sendable, Hashable {
    /// The server's page size, when fixed; informational (links decide where the list ends).
    public var pageSize: Int?
    /// The response header carrying the total item count, e.g. `X-Total-Count`; `nil` for the
    /// default.
    public var totalCountHeader: String?
    /// The key of the object property that holds the items, when pages are objects rather than
    /// bare JSON arrays.
    public var itemsKey: String?

    /// Creates pagination metadata.
    public init(pageSize: Int? = nil, totalCountHeader: String? = nil, itemsKey: String? = nil) {
        self.pageSize = pageSize
        self.totalCountHeader = totalCountHeader
        self.itemsKey = itemsKey
    }
}

/// Limits and choices for one walk over a paginated list.
public struct PaginationOptions: Sendable {
    /// The most pages fetched (default 10,000). Pages that are empty but link onward count too,
    /// so a server that never stops cannot keep the walk going. Zero or less fetches nothing.
    public var maxPages: Int
    /// The most items returned; `nil` for no limit. Fetching stops as soon as it is reached;
    /// zero or less fetches nothing.
    public var maxItems: Int?
    /// The object key holding the items when pages are objects; `nil` uses the operation's
    /// ``PaginationMetadata/itemsKey``, and without one each page must be a JSON array.
    public var itemsKey: String?
    /// The header with the total item count; `nil` uses the operation's
    /// ``PaginationMetadata/totalCountHeader``, else `X-Total-Count`.
    public var totalCountHeader: String?
    /// Fetch only this page (1 for the first), by setting ``pageParameter`` in the query;
    /// `nil` walks the `next` links from the endpoint's own URL.
    public var page: Int?
    /// The query parameter that selects a page in single-page mode (default `page`).
    public var pageParameter: String
    /// Whether the next page is fetched while the current one is being consumed, and requested
    /// as soon as a page's `Link` header is read when the consumer is waiting for that page
    /// (default true). At most one page is fetched beyond the one the consumer holds or waits
    /// for, and it is cancelled if the consumer stops or a page fails.
    public var prefetch: Bool

    /// The header `totalCountHeader` falls back to.
    public static let defaultTotalCountHeader = "X-Total-Count"

    /// Creates options; the defaults walk every page (up to 10,000) with prefetching.
    public init(
        maxPages: Int = 10_000,
        maxItems: Int? = nil,
        itemsKey: String? = nil,
        totalCountHeader: String? = nil,
        page: Int? = nil,
        pageParameter: String = "page",
        prefetch: Bool = true
    ) {
        self.maxPages = maxPages
        self.maxItems = maxItems
        self.itemsKey = itemsKey
        self.totalCountHeader = totalCountHeader
        self.page = page
        self.pageParameter = pageParameter
        self.prefetch = prefetch
    }
}

/// Items collected from a paginated list, with what is known about the whole list.
///
/// A random-access collection of the items, so it can be used like an array:
///
/// ```swift
/// let todos = try await client.paginate(endpoint).collect()
/// print(todos.count, "of", todos.meta.totalCount ?? todos.count)
/// for todo in todos { … }
/// ```
public struct ListResult<Item: Sendable>: Sendable, RandomAccessCollection {
    /// The items, in the server's order.
    public var items: [Item]
    /// Total count, truncation and page count.
    public var meta: ListMeta

    /// Creates a result.
    public init(items: [Item], meta: ListMeta) {
        self.items = items
        self.meta = meta
    }

    /// 0.
    public var startIndex: Int { items.startIndex }
    /// The number of items.
    public var endIndex: Int { items.endIndex }

    /// The item at `position`.
    public subscript(position: Int) -> Item { items[position] }
}

extension ListResult: Equatable where Item: Equatable {}
extension ListResult: Hashable where Item: Hashable {}

/// What is known about a whole list after collecting some or all of it.
public struct ListMeta: Sendable, Hashable {
    /// The list's total item count from the server's total-count header; `nil` when it sent none.
    public var totalCount: Int?
    /// True only when the list held more items than were returned (a limit stopped the walk
    /// before the end); false when every item was returned.
    public var truncated: Bool
    /// How many pages were fetched.
    public var pageCount: Int

    /// Creates list metadata.
    public init(totalCount: Int?, truncated: Bool, pageCount: Int) {
        self.totalCount = totalCount
        self.truncated = truncated
        self.pageCount = pageCount
    }
}
