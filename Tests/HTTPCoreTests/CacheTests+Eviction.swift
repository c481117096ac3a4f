import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

extension CacheTests {
    @Test("LRU by entries: the least recently used entry goes first")
    func lruByEntries() async throws {
        let hooks = HookRecorder()
        let cache = ResponseCache(maxEntries: 2)
        let transport = ScriptedTransport(clock: nil) { request in
            if request.header("If-None-Match") != nil {
                return TransportResponse(response: HTTPResponse(status: .notModified), url: request.url)
            }
            return TransportResponse(
                response: HTTPResponse(status: .ok, headerFields: [.eTag: "\"\(request.url.lastPathComponent)\""]),
                body: Data(#"{"name":"\#(request.url.lastPathComponent)","version":1}"#.utf8),
                url: request.url
            )
        }
        let client = try makeCachingClient(transport, cache: cache, hooks: hooks)
        func get(_ name: String) async throws -> Response<Resource> {
            try await client.response(Endpoint<Resource>(.get, "r/\(name)"))
        }
        _ = try await get("a")
        _ = try await get("b")
        #expect(try await get("a").fromCache)  // a is now more recent than b
        _ = try await get("c")  // evicts b
        #expect(try await cache.count == 2)
        #expect(try await get("a").fromCache)
        #expect(try await get("b").fromCache == false)
        let evictions = hooks.events.cache.filter { $0.kind == .evicted }
        #expect(evictions.first?.reason == .capacity)
        #expect(evictions.first?.url.hasSuffix("/r/b") == true)
    }

    @Test("LRU by bytes: storing past maxBytes evicts least recently used entries")
    func lruByBytes() async throws {
        let body = String(repeating: "x", count: 1000)
        let cache = ResponseCache(maxBytes: 2 * 1400)
        let transport = ScriptedTransport(clock: nil) { request in
            if request.header("If-None-Match") != nil {
                return TransportResponse(response: HTTPResponse(status: .notModified), url: request.url)
            }
            return TransportResponse(
                response: HTTPResponse(status: .ok, headerFields: [.eTag: "\"e\""]),
                body: Data(body.utf8),
                url: request.url
            )
        }
        let client = try makeCachingClient(transport, cache: cache)
        func get(_ name: String) async throws -> Response<Data> {
            try await client.response(Endpoint<Data>(.get, "blob/\(name)"))
        }
        _ = try await get("a")
        _ = try await get("b")
        #expect(try await cache.count == 2)
        _ = try await get("a")
        _ = try await get("c")
        #expect(try await cache.count == 2)
        #expect(try await cache.totalBytes <= 2 * 1400)
        #expect(try await get("a").fromCache)
        #expect(try await get("c").fromCache)
        #expect(try await get("b").fromCache == false)

        let tiny = ResponseCache(maxBytes: 500)
        let small = try makeCachingClient(transport, cache: tiny)
        _ = try await small.send(Endpoint<Data>(.get, "blob/big"))
        #expect(try await tiny.count == 0)
    }

    @Test("A successful write drops the URL's entries", arguments: [HTTPRequest.Method.put, .post, .patch, .delete])
    func invalidationAfterWrite(method: HTTPRequest.Method) async throws {
        let stored = try await StoredResource(then: [
            .status(204),
            .json(["name": "one", "version": 2], headers: [.eTag: "\"v2\""]),
        ])
        _ = try await stored.client.send(Endpoint<NoContent>(method, "resources/1", body: .json(["version": 2])))
        #expect(try await stored.cache.count == 0)
        let after = try await stored.client.response(endpoint)
        #expect(stored.transport.requests[2].header("If-None-Match") == nil)
        #expect(after.value.version == 2)
        #expect(stored.hooks.events.cache.contains { $0.kind == .evicted && $0.reason == .invalidated })
    }

    @Test("A failed write keeps the entry; a write elsewhere keeps it too")
    func failedWriteKeepsEntry() async throws {
        let stored = try await StoredResource(then: [
            .status(500),
            .status(204),
        ])
        _ = try? await stored.client.send(Endpoint<NoContent>(.put, "resources/1"))
        _ = try await stored.client.send(Endpoint<NoContent>(.put, "resources/2"))
        #expect(try await stored.cache.count == 1)
    }

    @Test("A write's same-origin Location is invalidated too")
    func locationInvalidated() async throws {
        let stored = try await StoredResource(then: [.status(201, headers: [.location: "/v1/resources/1"])])
        _ = try await stored.client.send(Endpoint<NoContent>(.post, "resources"))
        #expect(try await stored.cache.count == 0)
    }

    @Test("removeAll and invalidate(_:) empty the cache on demand")
    func manualInvalidation() async throws {
        let stored = try await StoredResource(then: [.json(["name": "two", "version": 1], headers: [.eTag: "\"v2\""])])
        _ = try await stored.client.send(Endpoint<Resource>(.get, "resources/2"))
        let url = try #require(URL(string: "https://api.example.com/v1/resources/1"))
        #expect(try await stored.cache.invalidate(url) == 1)
        #expect(try await stored.cache.count == 1)
        try await stored.cache.removeAll()
        #expect(try await stored.cache.count == 0)
        #expect(try await stored.cache.totalBytes == 0)
    }
}
