import Foundation
import HTTPTypes
import HTTPTypesFoundation
import Testing

@testable import HTTPCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Transport conversions")
struct TransportConversionTests {
    private func request(_ url: String, method: HTTPRequest.Method = .get) throws -> HTTPRequest {
        HTTPRequest(method: method, url: try #require(URL(string: url)))
    }

    @Test("A remembered target URL is only reused for the same scheme, authority and path")
    func targetURL() throws {
        let targets = [
            "https://a.example/v1/items?page=2",
            "https://a.example/v1/items?page=2",
            "https://a.example/v1/items?page=3",
            "https://b.example/v1/items?page=3",
            "http://b.example/v1/items?page=3",
            "http://b.example:8080/v1/items?page=3",
            "https://a.example/v1/items?page=2",
        ]
        for target in targets {
            let request = try request(target)
            #expect(TargetURL.of(request) == request.url)
            #expect(TargetURL.of(request)?.absoluteString == target)
        }
    }

    @Test("A field's joined value reads as the subscript reads it")
    func joinedValue() throws {
        let xTrace = try #require(HTTPField.Name("X-Trace"))
        let fields: HTTPFields = [
            .eTag: "\"v1\"", .cacheControl: "max-age=60", .accept: "text/plain", .cacheControl: "private",
            .cookie: "a=1", .cookie: "b=2", xTrace: "", .cacheControl: "no-cache",
        ]
        for name in [HTTPField.Name.eTag, .cacheControl, .cookie, xTrace, .lastModified, .accept] {
            #expect(fields.joinedValue(for: name) == fields[name], "\(name)")
        }
        #expect(fields.joinedValue(for: .cacheControl) == "max-age=60, private, no-cache")
        #expect(fields.joinedValue(for: .cookie) == "a=1; b=2")
        #expect(fields.joinedValue(for: xTrace) == "")
        #expect(fields.joinedValue(for: .lastModified) == nil)
    }

    @Test("A request's URL text is what its URL reads as, without parsing it")
    func urlText() throws {
        for text in ["https://a.example/v1/items?page=2&q=a%20b", "http://127.0.0.1:8080/"] {
            let request = try request(text)
            #expect(request.urlText == request.url?.absoluteString)
            #expect(request.urlText == text)
        }
        // A request carries no user info, in its URL or in its text.
        let withUserInfo = try request("https://user@a.example:8443/x")
        #expect(withUserInfo.urlText == withUserInfo.url?.absoluteString)
        #expect(withUserInfo.urlText == "https://a.example:8443/x")
        var pathless = try request("https://a.example/x")
        pathless.path = nil
        #expect(pathless.urlText == nil)
    }

    @Test("A cache key's target is the request's URL without its fragment")
    func requestTarget() throws {
        let request = try request("https://a.example:8443/v1/items?page=2#top")
        let target = try #require(RequestTarget(request))
        #expect(target.text == "https://a.example:8443/v1/items?page=2")
        var pathless = request
        pathless.path = nil
        #expect(RequestTarget(pathless) == nil)
    }

    @Test("A request whose fields name no URL gets none")
    func noTargetURL() throws {
        var request = try request("https://a.example/x")
        request.path = nil
        #expect(TargetURL.of(request) == nil)
        let asterisk = HTTPRequest(method: .options, scheme: "https", authority: "a.example", path: "*")
        #expect(TargetURL.of(asterisk) == nil)
    }

    @Test("A response head keeps every header field and the status, as swift-http-types converts it")
    func responseHead() throws {
        let url = try #require(URL(string: "https://a.example/x"))
        let response = try #require(
            HTTPURLResponse(
                url: url,
                statusCode: 201,
                httpVersion: "HTTP/1.1",
                headerFields: [
                    "Content-Type": "application/json",
                    "ETag": "\"v1\"",
                    "X-Latin": "caf\u{E9}",
                    "X-Beyond": "5\u{20AC}5",
                    "Bad Name": "dropped",
                ]
            )
        )
        let head = try #require(response.head)
        let reference = try #require(response.httpResponse)
        #expect(head.status.code == 201)
        #expect(Set(head.headerFields.map(\.description)) == Set(reference.headerFields.map(\.description)))
        #expect(head.headerFields.count == 4)
        // Each character is one byte; a character no byte could have produced becomes a space.
        let latin = try #require(head.headerFields.first { $0.name.rawName == "X-Latin" })
        #expect(latin.withUnsafeBytesOfValue { Array($0) } == Array("caf".utf8) + [0xE9])
        let beyond = try #require(head.headerFields.first { $0.name.rawName == "X-Beyond" })
        #expect(beyond.withUnsafeBytesOfValue { Array($0) } == [0x35, 0x20, 0x35])
    }

    @Test("A status beyond three digits makes no head")
    func oddStatus() throws {
        let url = try #require(URL(string: "https://a.example/x"))
        let response = try #require(HTTPURLResponse(url: url, statusCode: 1000, httpVersion: nil, headerFields: nil))
        #expect(response.head == nil)
    }

    @Test("A request's method and fields reach the URLRequest, repeated fields joined")
    func urlRequestFields() throws {
        let url = try #require(URL(string: "https://a.example/x"))
        var fields = HTTPFields()
        fields.append(HTTPField(name: .accept, value: "application/json"))
        fields.append(HTTPField(name: .accept, value: "text/plain"))
        fields.append(HTTPField(name: .cookie, value: "a=1"))
        fields.append(HTTPField(name: .cookie, value: "b=2"))
        fields.append(HTTPField(name: try #require(HTTPField.Name("X-Bytes")), value: [0x63, 0xE9]))
        var get = URLRequest(url: url)
        get.setFields(of: HTTPRequest(method: .get, url: url, headerFields: fields))
        #expect(get.httpMethod == "GET")
        #expect(get.value(forHTTPHeaderField: "Accept") == "application/json, text/plain")
        #expect(get.value(forHTTPHeaderField: "Cookie") == "a=1; b=2")
        #expect(get.value(forHTTPHeaderField: "X-Bytes") == "c\u{E9}")
        var patch = URLRequest(url: url)
        patch.setFields(of: HTTPRequest(method: .patch, url: url))
        #expect(patch.httpMethod == "PATCH")
    }
}
