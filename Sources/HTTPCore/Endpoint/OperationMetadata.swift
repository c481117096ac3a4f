public import HTTPTypes

/// What an endpoint is, for hooks, metrics and the decisions the layer makes about it.
///
/// SDKs fill this from their Spec; a hand-written endpoint can leave it empty.
public struct OperationMetadata: Sendable, Hashable {
    /// A stable operation name for hooks and metric labels, e.g. `GetProject`.
    public var name: String
    /// The service the operation belongs to, e.g. `projects`.
    public var service: String
    /// Whether repeating the request is safe. `nil` means "decide by HTTP method": GET, HEAD,
    /// PUT, DELETE and OPTIONS are safe to repeat, POST and PATCH are not.
    public var idempotent: Bool?
    /// Whether the operation changes data on the server. `nil` means "decide by HTTP method":
    /// GET, HEAD, OPTIONS and TRACE only read. An API that writes with GET says `true`, so an
    /// error after a retry says when an earlier attempt may have been applied
    /// (``APIError/Details/earlierAttemptMayHaveBeenApplied``).
    public var changesData: Bool?
    /// This operation's retry policy, replacing the client's; `nil` uses the client's.
    public var retry: RetryPolicy?
    /// This operation's redirect policy, replacing the client's ``ClientConfiguration/redirectPolicy``;
    /// `nil` uses the client's. ``RedirectPolicy/none`` hands a 301, 302, 303, 307 or 308 to the
    /// call as its answer rather than an error (decoded by the endpoint's decoder, with its
    /// status and headers in the ``Response``), for a call that follows the `Location` itself
    /// (with other credentials, say). Credential headers
    /// the client's redactor knows are stripped across origins whatever the policy lists.
    public var redirects: RedirectPolicy?
    /// How the operation's list responses page, for ``Client/paginate(_:options:)``; `nil` for
    /// operations that do not return pages.
    public var pagination: PaginationMetadata?

    /// Creates metadata; every field is optional so hand-written endpoints stay short.
    public init(
        name: String = "",
        service: String = "",
        idempotent: Bool? = nil,
        changesData: Bool? = nil,
        retry: RetryPolicy? = nil,
        redirects: RedirectPolicy? = nil,
        pagination: PaginationMetadata? = nil
    ) {
        self.name = name
        self.service = service
        self.idempotent = idempotent
        self.changesData = changesData
        self.retry = retry
        self.redirects = redirects
        self.pagination = pagination
    }

    /// Whether a `method` request for this operation changes data: ``changesData`` when set,
    /// otherwise whether the method is one that writes (not one of RFC 9110's safe methods).
    public func changesData(by method: HTTPRequest.Method) -> Bool {
        changesData ?? !Self.readMethods.contains(method)
    }

    /// The methods that only read (the safe methods of RFC 9110, section 9.2.1).
    private static let readMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace]
}
