import HTTPTypes

/// A request's URL as its pseudo-header fields carry it: scheme, authority and path (with query),
/// with no fragment.
///
/// Kept in parts and only put together as text when something hashes or shows it, and never
/// parsed into a `URL`. The cache keys a remembered request by the parts, so a revalidation
/// builds no string; hook events show the text, where parsing a `URL` twice a call was the
/// largest single cost of a call with hooks.
struct RequestTarget: Hashable, Sendable {
    var scheme: String
    var authority: String
    var path: String

    /// The request's target; `nil` when a pseudo-header is missing.
    init?(_ request: HTTPRequest) {
        guard let scheme = request.scheme, let authority = request.authority, let path = request.path else {
            return nil
        }
        self.scheme = scheme
        self.authority = authority
        self.path = path
    }

    /// The URL as text, as `HTTPRequest.url` would read.
    var text: String { scheme + "://" + authority + path }
}

extension HTTPRequest {
    /// The request's URL as text, without parsing it into a `URL`; `nil` when a pseudo-header is
    /// missing.
    var urlText: String? { RequestTarget(self)?.text }
}
