/// One page of a paginated list arrived, reported to ``Hooks/page(_:)``.
///
/// Each page is its own call (with its own operation and request events, retries and cache
/// events); this event follows the call's end, when the walk takes the page, so events come in
/// page order. It says where the page sits in the walk.
public struct PageEvent: Sendable {
    /// The list endpoint's operation metadata.
    public var operation: OperationMetadata
    /// The page's URL with secrets replaced.
    public var url: String
    /// The page's position in this walk: 0 for the first page fetched.
    public var index: Int
    /// How many items the page held.
    public var itemCount: Int
    /// The HTTP status.
    public var status: Int
    /// Whether the page was served from the client's cache after a 304.
    public var fromCache: Bool
    /// Whether the page links to a next page.
    public var hasNext: Bool
    /// The list's total item count, when the server sent it.
    public var totalCount: Int?

    /// Creates an event.
    public init(
        operation: OperationMetadata,
        url: String,
        index: Int,
        itemCount: Int,
        status: Int,
        fromCache: Bool,
        hasNext: Bool,
        totalCount: Int?
    ) {
        self.operation = operation
        self.url = url
        self.index = index
        self.itemCount = itemCount
        self.status = status
        self.fromCache = fromCache
        self.hasNext = hasNext
        self.totalCount = totalCount
    }
}
