import HTTPTypes

extension HTTPRequest {
    /// The request's URL as text, put together from its scheme, authority and path, as
    /// `url?.absoluteString` reads but without parsing a `URL`; `nil` when a pseudo-header is
    /// missing. Hook events and cache keys show it.
    package var urlText: String? {
        guard let scheme, let authority, let path else { return nil }
        return scheme + "://" + authority + path
    }
}
