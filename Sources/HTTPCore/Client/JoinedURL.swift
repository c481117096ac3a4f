/// A path and query joined to a base URL as text: the one rule for every URL HTTPCore builds,
/// an endpoint's and an authentication request's alike.
///
/// A path starting with `http://` or `https://` (any letter case) stands on its own; any other
/// path is joined to the base with exactly one slash, and the query is appended with `?`, or `&`
/// when the path already carries one.
struct JoinedURL {
    /// The base URL, or empty for an absolute path.
    private var prefix: String
    /// What follows `prefix`: the absolute URL, or the relative path and query.
    private var rest: String
    /// Whether the path was an absolute URL.
    var isAbsolute: Bool

    /// The whole URL text, built on demand: a request to a relative path usually never needs it.
    var text: String { prefix + rest }
    /// What follows the base URL (`/relative/path?query`); empty for an absolute path.
    var suffix: String { isAbsolute ? "" : rest }

    /// Joins `path` and `query` to `base`, a URL string without a trailing slash or query.
    init(base: String, path: String, query: QueryParameters) {
        isAbsolute = Self.hasHTTPScheme(path)
        if isAbsolute {
            prefix = ""
            rest = path
        } else {
            prefix = base
            let relative = path.drop(while: { $0 == "/" })
            rest = relative.isEmpty ? "" : "/" + relative
        }
        let encoded = query.percentEncoded()
        if !encoded.isEmpty {
            rest += (rest.utf8.contains(UInt8(ascii: "?")) ? "&" : "?") + encoded
        }
    }

    /// Whether `path` starts with `http://` or `https://`, in any letter case.
    private static func hasHTTPScheme(_ path: String) -> Bool {
        var bytes = path.utf8.makeIterator()
        for expected in "http".utf8 {
            guard let byte = bytes.next(), byte | 0x20 == expected else { return false }
        }
        var next = bytes.next()
        if next.map({ $0 | 0x20 }) == UInt8(ascii: "s") { next = bytes.next() }
        return next == UInt8(ascii: ":") && bytes.next() == UInt8(ascii: "/") && bytes.next() == UInt8(ascii: "/")
    }
}
