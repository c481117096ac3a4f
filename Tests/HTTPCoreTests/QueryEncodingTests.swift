import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@Suite("Query encoding")
struct QueryEncodingTests {
    @Test(
        "Values are percent-encoded with RFC 3986 unreserved characters only",
        arguments: [
            ("a b", "a%20b"),
            ("1+1=2", "1%2B1%3D2"),
            ("café", "caf%C3%A9"),
            ("日本", "%E6%97%A5%E6%9C%AC"),
            ("a&b#c?d/e", "a%26b%23c%3Fd%2Fe"),
            ("safe-._~", "safe-._~"),
            ("😀", "%F0%9F%98%80"),
        ]
    )
    func percentEncoding(value: String, expected: String) {
        let query: QueryParameters = ["q": value]
        #expect(query.percentEncoded() == "q=\(expected)")
    }

    @Test("nil values are dropped and order is kept")
    func nilsDropped() {
        let missing: Int? = nil
        let query: QueryParameters = ["b": "2", "skip": missing, "a": 1, "also": nil]
        #expect(query.percentEncoded() == "b=2&a=1")
    }

    @Test("Arrays repeat the name; Booleans and dates encode predictably")
    func arraysBoolsDates() {
        let date = Date(timeIntervalSince1970: 1_714_557_600)  // 2024-05-01T10:00:00Z
        let query: QueryParameters = [
            "ids[]": [1, 2, 3], "done": true, "archived": false, "since": date, "ratio": 0.5,
        ]
        #expect(
            query.percentEncoded()
                == "ids%5B%5D=1&ids%5B%5D=2&ids%5B%5D=3&done=true&archived=false&since=2024-05-01T10%3A00%3A00Z&ratio=0.5"
        )
    }

    @Test("An empty array sends nothing")
    func emptyArray() {
        let query: QueryParameters = ["tags": [String]()]
        #expect(query.percentEncoded().isEmpty)
    }

    @Test("Form encoding writes spaces as + and keeps + escaped")
    func formEncoding() {
        let fields: QueryParameters = ["name": "Ada Lovelace", "sum": "1+1", "skip": nil]
        #expect(fields.formEncoded() == "name=Ada+Lovelace&sum=1%2B1")
    }

    @Test("The client appends the query to the URL, after any query in the path")
    func clientURL() throws {
        let client = try makeClient(ScriptedTransport())
        let plain = Endpoint<JSONValue>(.get, "/search", query: ["q": "a b", "page": 2])
        #expect(try client.url(for: plain).absoluteString == "https://api.example.com/v1/search?q=a%20b&page=2")
        let withQuery = Endpoint<JSONValue>(.get, "items?sort=asc", query: ["page": 3])
        #expect(try client.url(for: withQuery).absoluteString == "https://api.example.com/v1/items?sort=asc&page=3")
    }

    @Test("Characters a URL cannot hold are escaped in paths")
    func pathEscaping() throws {
        let client = try makeClient(ScriptedTransport())
        let endpoint = Endpoint<JSONValue>(.get, "files/my report é.txt")
        #expect(
            try client.url(for: endpoint).absoluteString == "https://api.example.com/v1/files/my%20report%20%C3%A9.txt"
        )
    }
}
