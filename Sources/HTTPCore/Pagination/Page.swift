public import Foundation
public import HTTPTypes

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
