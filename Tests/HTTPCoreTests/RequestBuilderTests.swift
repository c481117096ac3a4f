import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import HTTPTypesFoundation
import Testing

@Suite("Request building")
struct RequestBuilderTests {
    static let bases = [
        "https://api.example.com", "https://api.example.com/v1", "https://api.example.com:8443/a/b%20c",
        "http://127.0.0.1:9000/api", "http://[::1]:8080", "https://user@api.example.com/v1",
        "https://API.Example.com:443", "http://[::1]:8080/v%201/x", "https://user:pw@api.example.com:/v1",
    ]
    static let paths = [
        "", "/", "users", "/users/42", "a b/ü", "notes?sort=asc", "search?q=1#frag", "x;y=1/z@w", "%41bc",
        "tags/caf%C3%A9", "emoji/👍", "spaces in/the path", "half%escape", "#only-fragment", "?only=query",
        "https://files.example.com/f/1?sig=abc", "HTTPS://Files.Example.com/upper", "https://files.example.com/f#part",
        "http://127.0.0.1:9/loop", "https://files.example.com/ü?x=ä", "%zz", "a?b=%zz", "up/../down", "//twice//x",
        "a:b@c", "x?#", "https://files.example.com:8443?only=query", "http://[::1]:9/six",
        "http://[::1]:9/a b?c=ü", "https://[2001:db8::1]/x",
    ]
    static let queries: [QueryParameters] = [
        [:], ["page": "2", "q": "a b&c"], ["tag": ["x", "y"], "when": nil], ["ü": "ß/+?#"],
    ]

    /// `url(for:)` and `makeRequest(for:)` must name the same target for every endpoint: the
    /// request's URL is the endpoint's URL as it is sent (see `sentForm(of:)`), and a request to a
    /// relative path, built from the base URL's parts, has the parts `HTTPRequest(method:url:)`
    /// gives.
    @Test("url(for:) and makeRequest(for:) agree on the target", arguments: bases)
    func urlAndRequestAgree(base: String) throws {
        let client = try makeClient(ScriptedTransport(), baseURL: base)
        for path in Self.paths {
            for query in Self.queries {
                let endpoint = Endpoint<JSONValue>(.get, path, query: query)
                let url = try client.url(for: endpoint)
                let (request, _) = try client.makeRequest(for: endpoint)
                let expected = HTTPRequest(method: .get, url: url)
                #expect(request.scheme == expected.scheme, "\(base) + \(path)")
                #expect(request.authority == expected.authority, "\(base) + \(path)")
                #expect(request.path == expected.path, "\(base) + \(path)")
                #expect(request.url?.absoluteString == expected.url?.absoluteString, "\(base) + \(path)")
                #expect(request.url?.absoluteString == Self.sentForm(of: url), "\(base) + \(path)")
            }
        }
    }

    /// `url` as a request carries it: no fragment or user info, and `/` for an empty path.
    private static func sentForm(of url: URL) -> String? {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.fragment = nil
        components?.user = nil
        components?.password = nil
        if components?.percentEncodedPath.isEmpty == true { components?.percentEncodedPath = "/" }
        return components?.string
    }

    @Test("Characters a URL cannot carry are percent-encoded; escapes, separators and queries stay")
    func escaping() throws {
        let client = try makeClient(ScriptedTransport(), baseURL: "https://api.example.com/v1")
        let cases = [
            ("a b/ü", "https://api.example.com/v1/a%20b/%C3%BC"),
            ("tags/caf%C3%A9", "https://api.example.com/v1/tags/caf%C3%A9"),
            ("x;y=1/z@w?q=1&r=2", "https://api.example.com/v1/x;y=1/z@w?q=1&r=2"),
            ("emoji/👍", "https://api.example.com/v1/emoji/%F0%9F%91%8D"),
            ("a\"b<c>", "https://api.example.com/v1/a%22b%3Cc%3E"),
            ("http://[::1]:9/a b", "http://[::1]:9/a%20b"),
            ("HTTPS://[2001:db8::1]:8443/x[1]?q#f", "HTTPS://[2001:db8::1]:8443/x%5B1%5D?q#f"),
        ]
        for (path, expected) in cases {
            #expect(try client.url(for: Endpoint<JSONValue>(.get, path)).absoluteString == expected)
        }
        let queried = Endpoint<JSONValue>(.get, "notes?sort=asc", query: ["q": "a b"])
        #expect(try client.url(for: queried).absoluteString == "https://api.example.com/v1/notes?sort=asc&q=a%20b")
    }

    @Test("Default headers, User-Agent and Accept start every request; the endpoint's headers win")
    func headers() throws {
        let client = try makeClient(ScriptedTransport()) {
            $0.defaultHeaders = [.acceptLanguage: "en", .accept: "text/plain"]
            $0.userAgent = "Tests/1"
        }
        let (plain, _) = try client.makeRequest(for: Endpoint<JSONValue>(.get, "x"))
        #expect(plain.headerFields[.acceptLanguage] == "en")
        #expect(plain.headerFields[.accept] == "text/plain")
        #expect(plain.headerFields[.userAgent] == "Tests/1")
        let (own, body) = try client.makeRequest(
            for: Endpoint<JSONValue>(.post, "x", headers: [.acceptLanguage: "de"], body: .json(["a": 1]))
        )
        #expect(own.headerFields[values: .acceptLanguage] == ["de"])
        #expect(own.headerFields[.contentType] == "application/json")
        #expect(body.map { String(decoding: $0, as: UTF8.self) } == #"{"a":1}"#)
    }
}
