/// A path and query joined to a base URL as text: the rule ``RequestBuilder`` applies to every
/// URL HTTPCore builds.
///
/// A path starting with `http://` or `https://` (any letter case) stands on its own; any other
/// path is joined to the base with exactly one slash, and the query is appended with `?`, or `&`
/// when the path already carries one.
struct JoinedURL {
    /// The whole URL text.
    var text: String
    /// Whether the path was an absolute URL.
    var isAbsolute: Bool

    /// Joins `path` and `query` to `base`, a URL string without a trailing slash or query.
    init(base: String, path: String, query: QueryParameters) {
        isAbsolute = Self.isAbsoluteURL(path)
        if isAbsolute {
            text = path
        } else {
            let relative = path.drop(while: { $0 == "/" })
            text = relative.isEmpty ? base : base + "/" + relative
        }
        let encoded = query.percentEncoded()
        if !encoded.isEmpty {
            // The base carries no query, so a `?` in the text is the path's own.
            text += (text.contains("?") ? "&" : "?") + encoded
        }
    }

    /// Where the authority of `path` ends (at its first `/`, `?` or `#` after the `//`), when
    /// `path` is an absolute URL; `nil` for a relative path.
    static func authorityEnd(ofAbsolute path: String) -> String.Index? {
        guard isAbsoluteURL(path), let colon = path.firstIndex(of: ":") else { return nil }
        let authority = path[colon...].dropFirst(3)
        return authority.firstIndex { "/?#".contains($0) } ?? path.endIndex
    }

    /// Whether `path` starts with `http://` or `https://`, in any letter case.
    private static func isAbsoluteURL(_ path: String) -> Bool {
        let scheme = path.prefix(8).lowercased()
        return scheme.hasPrefix("http://") || scheme.hasPrefix("https://")
    }
}
