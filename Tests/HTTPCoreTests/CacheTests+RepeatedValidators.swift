import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

extension CacheTests {
    @Test("A kept response that repeats its ETag or Last-Modified is revalidated with, and compared by, the first")
    func repeatedValidatorsUseTheFirst() async throws {
        var stored: HTTPFields = [.eTag: "\"a\"", .lastModified: "Tue, 01 Dec 2026 10:00:00 GMT"]
        stored.append(HTTPField(name: .eTag, value: "\"b\""))
        stored.append(HTTPField(name: .lastModified, value: "Mon, 30 Nov 2026 10:00:00 GMT"))
        let transport = ScriptedTransport([
            .json(["name": "one", "version": 1], headers: stored),
            .status(304, headers: [.eTag: "\"a\""]),
            .status(304, headers: [.eTag: "\"b\""]),
            .json(["name": "one", "version": 2], headers: [.eTag: "\"c\""]),
        ])
        let client = try makeCachingClient(transport)

        _ = try await client.response(endpoint)
        let matched = try await client.response(endpoint)
        // "b" is not the tag the conditional request named, so the kept body is not vouched for.
        let unmatched = try await client.response(endpoint)

        #expect(transport.requests[1].header("If-None-Match") == "\"a\"")
        #expect(transport.requests[1].header("If-Modified-Since") == "Tue, 01 Dec 2026 10:00:00 GMT")
        #expect(matched.fromCache)
        #expect(unmatched.fromCache == false)
        #expect(unmatched.value == Resource(name: "one", version: 2))
        #expect(transport.requests.count == 4)
        #expect(transport.requests[3].header("If-None-Match") == nil)
    }
}
