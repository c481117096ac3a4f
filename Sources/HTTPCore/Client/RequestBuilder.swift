import Foundation
import HTTPTypes

/// Builds the request an endpoint describes: base URL, path, query, headers and body.
///
/// The one place HTTPCore makes a target URL, for ``Client/url(for:)``,
/// ``Client/makeRequest(for:)`` and an auth strategy's own requests alike: the path is
/// percent-encoded where it must be, joined to the base URL (``JoinedURL``) and parsed by `URL`.
/// A request to a relative path takes its scheme and authority from the base URL and its `:path`
/// from the joined text when `URL` kept that text as it was; any other request is made from the
/// parsed URL with `HTTPRequest(method:url:)`.
struct RequestBuilder: Sendable {
    /// The base URL's text, validated and without a trailing slash.
    private let baseText: String
    /// The base URL's scheme, authority and path as `HTTPRequest(method:url:)` takes them apart;
    /// the path is empty for the root, so that a relative path can follow it.
    private let baseScheme: String?
    private let baseAuthority: String?
    private let basePath: String
    /// The fields every request starts with: the default headers, then `User-Agent` and the
    /// default `Accept` unless they set them.
    private let baseHeaders: HTTPFields
    private let encoder: JSONEncoder
    private let redactor: Redactor
    /// Whether an absolute URL may use plain http to a remote host (``ClientConfiguration/allowsInsecureHTTP``).
    private let allowsInsecureHTTP: Bool

    /// A builder for requests below `baseURL`, which ``URLPolicy/validatedBaseURL(_:allowingInsecureHTTP:)`` accepted.
    init(
        baseURL: URL,
        defaultHeaders: HTTPFields,
        userAgent: String?,
        accept: String? = "application/json",
        json: JSONCoding,
        redactor: Redactor,
        allowsInsecureHTTP: Bool = false
    ) {
        baseText = baseURL.absoluteString
        let base = HTTPRequest(method: .get, url: baseURL)
        baseScheme = base.scheme
        baseAuthority = base.authority
        basePath = base.path == "/" ? "" : base.path ?? ""
        var headers = defaultHeaders
        if let userAgent, headers[.userAgent] == nil { headers[.userAgent] = userAgent }
        if let accept, headers[.accept] == nil { headers[.accept] = accept }
        baseHeaders = headers
        // Foundation's coders are safe to share once configured, and this one never changes.
        encoder = json.makeEncoder()
        self.redactor = redactor
        self.allowsInsecureHTTP = allowsInsecureHTTP
    }

    /// The URL for `path` (relative to the base URL, or absolute) with `query`.
    ///
    /// - Throws: ``APIError/usage(_:)`` when the text makes no valid URL or an absolute URL
    ///   breaks the https rule.
    func url(path: String, query: QueryParameters) throws -> URL {
        try target(path: path, query: query).url
    }

    /// The parsed URL for `path` and `query`, with the text it was parsed from.
    private func target(path: String, query: QueryParameters) throws -> (url: URL, joined: JoinedURL) {
        let joined = JoinedURL(base: baseText, path: Self.escapingPath(path), query: query)
        guard let url = URL(string: joined.text) else {
            throw APIError.usage("\"\(redactor.redact(urlString: joined.text))\" is not a valid URL.")
        }
        // A relative path keeps the base URL's scheme and host, which were checked already.
        if joined.isAbsolute { try URLPolicy.checkedTarget(url, allowingInsecureHTTP: allowsInsecureHTTP) }
        return (url, joined)
    }

    /// A request for `method` to the target, with no header fields yet.
    private func bareRequest(_ method: HTTPRequest.Method, url: URL, joined: JoinedURL) -> HTTPRequest {
        // Taking a URL apart again costs more than the parse itself on Linux, and the base URL's
        // parts already say what a relative target's parts are when `URL` changed none of its text.
        guard !joined.isAbsolute, url.absoluteString == joined.text else {
            return HTTPRequest(method: method, url: url)
        }
        let text = joined.text
        let targetStart = text.utf8.index(text.startIndex, offsetBy: baseText.utf8.count)
        let targetEnd = text.utf8[targetStart...].firstIndex(of: UInt8(ascii: "#")) ?? text.endIndex
        let path = basePath + text[targetStart..<targetEnd]
        return HTTPRequest(
            method: method,
            scheme: baseScheme,
            authority: baseAuthority,
            path: path.hasPrefix("/") ? path : "/" + path
        )
    }

    /// The request and encoded body for the given parts; `headers` replace the base headers of
    /// the same names.
    ///
    /// - Throws: ``APIError/usage(_:)`` for an invalid URL or a body that cannot be encoded.
    func request(
        _ method: HTTPRequest.Method,
        path: String,
        query: QueryParameters,
        headers: HTTPFields,
        body: RequestBody?
    ) throws -> (HTTPRequest, Data?) {
        let (url, joined) = try target(path: path, query: query)
        var request = bareRequest(method, url: url, joined: joined)
        request.headerFields = baseHeaders
        var data: Data?
        if let body {
            do {
                let encoded = try body.encoded(with: encoder)
                data = encoded.data
                request.headerFields[.contentType] = encoded.contentType
            } catch {
                throw APIError.usage(
                    APIError.Details(
                        message: "The request body could not be encoded: \(error)",
                        cause: SendableDescription(error)
                    )
                )
            }
        }
        for field in headers {
            request.headerFields[field.name] = nil
        }
        request.headerFields.append(contentsOf: headers)
        return (request, data)
    }

    /// `request` with each base header it does not set itself.
    func withBaseHeaders(_ request: HTTPRequest) -> HTTPRequest {
        var request = request
        let own = request.headerFields
        for field in baseHeaders where !own.contains(field.name) {
            request.headerFields.append(field)
        }
        return request
    }

    /// `path` with the characters a URL may not carry percent-encoded; existing escapes,
    /// separators and any query or fragment in the path stay as they are.
    private static func escapingPath(_ path: String) -> String {
        // Most paths need nothing encoded, and are checked without Foundation's slower bridge.
        guard !path.utf8.allSatisfy(isAllowedInPath) else { return path }
        // An absolute URL's authority stays as written: an IPv6 literal's brackets belong there.
        let authorityEnd = JoinedURL.authorityEnd(ofAbsolute: path) ?? path.startIndex
        let rest = path[authorityEnd...]
        let escaped = rest.addingPercentEncoding(withAllowedCharacters: allowedInPath) ?? String(rest)
        return path[..<authorityEnd] + escaped
    }

    /// Letters, digits, `-._~`, and the separators and escapes `!$&'()*+,;=:@/?%#`.
    private static func isAllowedInPath(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "&")...UInt8(ascii: "/"), UInt8(ascii: ":"),
            UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "?"), UInt8(ascii: "@"), UInt8(ascii: "_"),
            UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"):
            true
        default:
            false
        }
    }

    private static let allowedInPath = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?%#"
    )
}
