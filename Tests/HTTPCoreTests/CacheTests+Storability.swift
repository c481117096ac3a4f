import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

extension CacheTests {
    @Test("Only GET and HEAD are cached: a POST's ETag is never used", arguments: [HTTPRequest.Method.post, .patch])
    func onlySafeMethods(method: HTTPRequest.Method) async throws {
        let cache = ResponseCache()
        let transport = ScriptedTransport(clock: nil) { request in
            TransportResponse(
                response: HTTPResponse(status: .ok, headerFields: [.eTag: "\"p\"", .contentType: "application/json"]),
                body: Data(#"{"name":"p","version":1}"#.utf8),
                url: request.url
            )
        }
        let client = try makeCachingClient(transport, cache: cache)
        let write = Endpoint<Resource>(method, "resources/1", body: .json(["x": 1]))
        _ = try await client.send(write)
        _ = try await client.send(write)
        #expect(transport.requests.allSatisfy { $0.header("If-None-Match") == nil })
        #expect(try await cache.count == 0)
    }

    @Test("HEAD is cached apart from GET")
    func headSeparateFromGet() async throws {
        let cache = ResponseCache()
        let transport = ScriptedTransport([
            .status(200, headers: [.eTag: "\"h\""]),
            .json(["name": "one", "version": 1], headers: [.eTag: "\"g\""]),
            .status(304),
        ])
        let client = try makeCachingClient(transport, cache: cache)
        _ = try await client.send(Endpoint<NoContent>(.head, "resources/1"))
        _ = try await client.send(endpoint)
        _ = try await client.send(Endpoint<NoContent>(.head, "resources/1"))
        #expect(transport.requests[1].header("If-None-Match") == nil)
        #expect(transport.requests[2].header("If-None-Match") == "\"h\"")
        #expect(try await cache.count == 2)
    }

    @Test("A response without ETag or Last-Modified is not stored")
    func noValidatorNotStored() async throws {
        let cache = ResponseCache()
        let transport = ScriptedTransport([
            .json(["name": "one", "version": 1]),
            .json(["name": "one", "version": 1]),
        ])
        let client = try makeCachingClient(transport, cache: cache)
        _ = try await client.send(endpoint)
        _ = try await client.send(endpoint)
        #expect(try await cache.count == 0)
        #expect(transport.requests[1].header("If-None-Match") == nil)
    }

    @Test("Cache-Control: no-store is never stored, and drops the entry it replaces")
    func noStore() async throws {
        let stored = try await StoredResource(then: [
            .json(["name": "one", "version": 2], headers: [.eTag: "\"v2\"", .cacheControl: "private, no-store"]),
            .json(["name": "one", "version": 2], headers: [.eTag: "\"v2\"", .cacheControl: "no-store"]),
        ])
        #expect(try await stored.cache.count == 1)
        _ = try await stored.client.send(endpoint)
        #expect(try await stored.cache.count == 0)
        _ = try await stored.client.send(endpoint)
        #expect(try await stored.cache.count == 0)
        #expect(stored.transport.requests[1].header("If-None-Match") == "\"v1\"")
        #expect(stored.transport.requests[2].header("If-None-Match") == nil)
        #expect(stored.hooks.events.cache.contains { $0.kind == .evicted && $0.reason == .notCacheable })
        #expect(!stored.hooks.cacheKinds.dropFirst(2).contains(.stored))
    }

    @Test("A request with Cache-Control: no-store bypasses the cache")
    func requestNoStore() async throws {
        let cache = ResponseCache()
        let transport = ScriptedTransport([.json(["name": "one", "version": 1], headers: [.eTag: "\"v1\""])])
        let client = try makeCachingClient(transport, cache: cache)
        _ = try await client.send(Endpoint<Resource>(.get, "resources/1", headers: [.cacheControl: "no-store"]))
        #expect(try await cache.count == 0)
    }

    @Test("Stored headers drop Set-Cookie and secret headers")
    func storedHeadersScrubbed() async throws {
        let storage = MemoryCacheStorage()
        let cache = ResponseCache(storage: storage)
        let transport = ScriptedTransport([
            .json(
                ["name": "one", "version": 1],
                headers: [.eTag: "\"v1\"", .setCookie: "session=abc", .authorization: "Bearer leaked"]
            ),
            .status(304),
        ])
        let client = try makeCachingClient(transport, cache: cache)
        _ = try await client.send(endpoint)
        let second = try await client.response(endpoint)
        #expect(second.headers[.setCookie] == nil)
        #expect(second.headers[.authorization] == nil)
        #expect(second.headers[.eTag] == "\"v1\"")
    }
}
