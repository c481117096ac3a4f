import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

/// Hooks that keep cache, page and request events, for the cache, pagination and polling tests.
final class CacheAndPageRecorder: Hooks {
    struct Events: Sendable {
        var cache: [CacheEvent] = []
        var pages: [PageEvent] = []
        var requestEnds: [RequestEndEvent] = []
        var operationEnds: [OperationEndEvent] = []
    }

    private let storage = Locked(Events())

    var events: Events { storage.withLock { $0 } }
    var cacheKinds: [CacheEvent.Kind] { events.cache.map(\.kind) }

    func cache(_ event: CacheEvent) { storage.withLock { $0.cache.append(event) } }
    func page(_ event: PageEvent) { storage.withLock { $0.pages.append(event) } }
    func requestEnded(_ event: RequestEndEvent) { storage.withLock { $0.requestEnds.append(event) } }
    func operationEnded(_ event: OperationEndEvent) { storage.withLock { $0.operationEnds.append(event) } }
}

/// A client with `cache` on `transport`, recording hook events, retries off unless asked.
func makeCachingClient(
    _ transport: ScriptedTransport,
    cache: ResponseCache = ResponseCache(),
    hooks: CacheAndPageRecorder = CacheAndPageRecorder(),
    configure: (inout ClientConfiguration) -> Void = { _ in }
) throws -> Client {
    try makeClient(transport) {
        $0.cache = cache
        $0.hooks = hooks
        $0.retry = .none
        configure(&$0)
    }
}

struct Resource: Codable, Sendable, Equatable {
    var name: String
    var version: Int
}

@Suite("Cache")
struct CacheTests {
    private let endpoint = Endpoint<Resource>(.get, "resources/1")

    @Test("ETag: stored, then If-None-Match → 304 → the stored body, fromCache on result and request hook")
    func etagRevalidation() async throws {
        let hooks = CacheAndPageRecorder()
        let transport = ScriptedTransport([
            .json(["name": "one", "version": 1], headers: [.eTag: "\"v1\""]),
            .status(304, headers: [.eTag: "\"v1\""]),
        ])
        let client = try makeCachingClient(transport, hooks: hooks)

        let first = try await client.response(endpoint)
        let second = try await client.response(endpoint)

        #expect(first.fromCache == false)
        #expect(second.fromCache == true)
        #expect(second.value == Resource(name: "one", version: 1))
        #expect(second.status.code == 200)
        #expect(transport.requests.count == 2)
        #expect(transport.requests[0].header("If-None-Match") == nil)
        #expect(transport.requests[1].header("If-None-Match") == "\"v1\"")
        #expect(hooks.cacheKinds == [.miss, .stored, .hit, .revalidated])
        #expect(hooks.events.requestEnds.map(\.fromCache) == [false, true])
        #expect(hooks.events.requestEnds.map(\.status) == [200, 304])
        #expect(hooks.events.operationEnds.map(\.status) == [200, 200])
    }

    @Test("A 304's headers update the stored ones, except those describing the body (RFC 9111 §4.3.4)")
    func revalidationMergesHeaders() async throws {
        var stored: HTTPFields = [.eTag: "\"v1\"", .cacheControl: "max-age=0", .date: "Mon", .via: "a"]
        stored.append(HTTPField(name: .link, value: "<a>; rel=\"first\""))
        stored.append(HTTPField(name: .link, value: "<b>; rel=\"last\""))
        stored.append(HTTPField(name: .server, value: "old"))
        var notModified: HTTPFields = [.eTag: "\"v2\"", .contentType: "text/plain", .cacheControl: "max-age=0"]
        notModified.append(HTTPField(name: .link, value: "<a>; rel=\"first\""))
        notModified.append(HTTPField(name: .link, value: "<c>; rel=\"last\""))
        // One field each (replaced where it stands), one becoming two, and one the entry lacked.
        notModified.append(HTTPField(name: .date, value: "Tue"))
        notModified.append(HTTPField(name: .via, value: "b"))
        notModified.append(HTTPField(name: .via, value: "c"))
        notModified.append(HTTPField(name: .age, value: "5"))
        let transport = ScriptedTransport([
            .json(["name": "one", "version": 1], headers: stored),
            .status(304, headers: notModified),
            .status(304, headers: [.eTag: "\"v2\""]),
        ])
        let client = try makeCachingClient(transport)

        _ = try await client.response(endpoint)
        let second = try await client.response(endpoint)
        let third = try await client.response(endpoint)

        #expect(second.headers[.eTag] == "\"v2\"")
        #expect(second.headers[values: .link] == ["<a>; rel=\"first\"", "<c>; rel=\"last\""])
        #expect(second.headers[.contentType] == "application/json")
        #expect(second.headers[values: .cacheControl] == ["max-age=0"])
        #expect(second.headers[values: .date] == ["Tue"])
        #expect(second.headers[values: .via] == ["b", "c"])
        #expect(second.headers[values: .age] == ["5"])
        #expect(second.headers[values: .server] == ["old"])
        // A replaced single field keeps its place among the stored ones.
        #expect(second.headers.map(\.name).prefix(4) == [.eTag, .cacheControl, .date, .via])
        #expect(second.value == Resource(name: "one", version: 1))
        // The new validator is kept: the next revalidation asks with it.
        #expect(transport.requests[2].header("If-None-Match") == "\"v2\"")
        #expect(third.fromCache == true)
    }

    @Test("Last-Modified only: If-Modified-Since is sent with the stored value")
    func lastModifiedRevalidation() async throws {
        let stamp = "Tue, 14 Nov 2023 22:13:20 GMT"
        let transport = ScriptedTransport([
            .json(["name": "one", "version": 1], headers: [.lastModified: stamp]),
            .status(304),
        ])
        let client = try makeCachingClient(transport)
        _ = try await client.send(endpoint)
        let second = try await client.response(endpoint)
        #expect(second.fromCache)
        #expect(transport.requests[1].header("If-Modified-Since") == stamp)
        #expect(transport.requests[1].header("If-None-Match") == nil)
    }

    @Test("A changed resource (200 to the conditional request) replaces the entry")
    func changedResourceReplaced() async throws {
        let transport = ScriptedTransport([
            .json(["name": "one", "version": 1], headers: [.eTag: "\"v1\""]),
            .json(["name": "one", "version": 2], headers: [.eTag: "\"v2\""]),
            .status(304),
        ])
        let client = try makeCachingClient(transport)
        _ = try await client.send(endpoint)
        let second = try await client.response(endpoint)
        let third = try await client.response(endpoint)
        #expect(second.fromCache == false && second.value.version == 2)
        #expect(third.fromCache && third.value.version == 2)
        #expect(transport.requests[2].header("If-None-Match") == "\"v2\"")
    }

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
        #expect(cache.count == 0)
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
        #expect(cache.count == 2)
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
        #expect(cache.count == 0)
        #expect(transport.requests[1].header("If-None-Match") == nil)
    }

    @Test("Cache-Control: no-store is never stored, and drops the entry it replaces")
    func noStore() async throws {
        let hooks = CacheAndPageRecorder()
        let cache = ResponseCache()
        let transport = ScriptedTransport([
            .json(["name": "one", "version": 1], headers: [.eTag: "\"v1\""]),
            .json(["name": "one", "version": 2], headers: [.eTag: "\"v2\"", .cacheControl: "private, no-store"]),
            .json(["name": "one", "version": 2], headers: [.eTag: "\"v2\"", .cacheControl: "no-store"]),
        ])
        let client = try makeCachingClient(transport, cache: cache, hooks: hooks)
        _ = try await client.send(endpoint)
        #expect(cache.count == 1)
        _ = try await client.send(endpoint)
        #expect(cache.count == 0)
        _ = try await client.send(endpoint)
        #expect(cache.count == 0)
        #expect(transport.requests[1].header("If-None-Match") == "\"v1\"")
        #expect(transport.requests[2].header("If-None-Match") == nil)
        #expect(hooks.events.cache.contains { $0.kind == .evicted && $0.reason == .notCacheable })
        #expect(!hooks.cacheKinds.dropFirst(2).contains(.stored))
    }

    @Test("A request with Cache-Control: no-store bypasses the cache")
    func requestNoStore() async throws {
        let cache = ResponseCache()
        let transport = ScriptedTransport([.json(["name": "one", "version": 1], headers: [.eTag: "\"v1\""])])
        let client = try makeCachingClient(transport, cache: cache)
        _ = try await client.send(Endpoint<Resource>(.get, "resources/1", headers: [.cacheControl: "no-store"]))
        #expect(cache.count == 0)
    }

    @Test("Keys of requests without credentials are reused per method and URL, bounded; with credentials never kept")
    func rememberedKeys() async throws {
        let transport = ScriptedTransport { request in
            let name = request.url.lastPathComponent
            if request.header("If-None-Match") == "\"\(name)\"" {
                return TransportResponse(
                    response: HTTPResponse(status: .notModified, headerFields: [.eTag: "\"\(name)\""]),
                    body: Data(),
                    url: request.url
                )
            }
            return TransportResponse(
                response: HTTPResponse(
                    status: .ok,
                    headerFields: [.eTag: "\"\(name)\"", .contentType: "application/json"]
                ),
                body: Data(#"{"name":"\#(name)","version":1}"#.utf8),
                url: request.url
            )
        }
        let cache = ResponseCache(maxEntries: 2000)
        let client = try makeCachingClient(transport, cache: cache)
        for round in 0..<2 {
            for index in 0..<3 {
                let response = try await client.response(Endpoint<Resource>(.get, "resources/r\(index)"))
                #expect(response.value.name == "r\(index)")
                #expect(response.fromCache == (round == 1))
            }
        }
        // HEAD is keyed apart from GET, and a first HEAD is no hit on the GET's entry.
        let head = try await client.response(Endpoint<NoContent>(.head, "resources/r0"))
        #expect(head.fromCache == false)
        #expect(cache.rememberedKeyCount == 4)

        let withToken = Endpoint<Resource>(.get, "resources/secret", headers: [.authorization: "Bearer t-1"])
        _ = try await client.send(withToken)
        #expect(try await client.response(withToken).fromCache)
        #expect(cache.rememberedKeyCount == 4)

        for index in 0..<1100 {
            _ = try await client.send(Endpoint<Resource>(.get, "resources/many\(index)"))
        }
        #expect(cache.rememberedKeyCount <= 1024)
        #expect(try await client.response(Endpoint<Resource>(.get, "resources/r1")).value.name == "r1")
        #expect(try await client.response(Endpoint<Resource>(.get, "resources/many5")).fromCache)
    }

    @Test("Entries are scoped by credentials: another token never gets the entry, and no key holds a token")
    func credentialScope() async throws {
        let hooks = CacheAndPageRecorder()
        let transport = ScriptedTransport([
            .json(["name": "alice", "version": 1], headers: [.eTag: "\"same\""]),
            .json(["name": "bob", "version": 1], headers: [.eTag: "\"same\""]),
            .status(304),
        ])
        let client = try makeCachingClient(transport, hooks: hooks)
        let alice = Endpoint<Resource>(.get, "me", headers: [.authorization: "Bearer alice-secret-token"])
        let bob = Endpoint<Resource>(.get, "me", headers: [.authorization: "Bearer bob-secret-token"])
        _ = try await client.send(alice)
        let bobValue = try await client.response(bob)
        let aliceAgain = try await client.response(alice)
        #expect(transport.requests[1].header("If-None-Match") == nil)
        #expect(bobValue.value.name == "bob" && !bobValue.fromCache)
        #expect(aliceAgain.value.name == "alice" && aliceAgain.fromCache)
        let payloads = hooks.events.cache.map { "\($0)" }.joined()
        #expect(!payloads.contains("secret-token"))
    }

    @Test("Credential headers scope entries whatever their order, and a different value misses")
    func credentialOrder() async throws {
        let transport = ScriptedTransport([
            .json(["name": "a", "version": 1], headers: [.eTag: "\"1\""]),
            .status(304),
            .json(["name": "b", "version": 1], headers: [.eTag: "\"2\""]),
        ])
        let apiKey = try #require(HTTPField.Name("X-API-Key"))
        let client = try makeCachingClient(transport) { $0.redactor.addSecretHeader(apiKey) }
        func me(_ fields: [HTTPField]) -> Endpoint<Resource> { Endpoint(.get, "me", headers: HTTPFields(fields)) }
        let token = HTTPField(name: .authorization, value: "Bearer t")
        let key = HTTPField(name: apiKey, value: "k1")
        _ = try await client.send(me([token, key]))
        let reordered = try await client.response(me([key, token]))
        let otherKey = try await client.response(me([token, HTTPField(name: apiKey, value: "k2")]))
        #expect(reordered.fromCache && reordered.value.name == "a")
        #expect(transport.requests[1].header("If-None-Match") == "\"1\"")
        #expect(!otherKey.fromCache && otherKey.value.name == "b")
        #expect(transport.requests[2].header("If-None-Match") == nil)
    }

    @Test("Without hooks the cache still revalidates and serves the stored body")
    func withoutHooks() async throws {
        let transport = ScriptedTransport([
            .json(["name": "kept", "version": 3], headers: [.eTag: "\"v3\""]),
            .status(304, headers: [.eTag: "\"v3\""]),
        ])
        let cache = ResponseCache()
        let client = try makeClient(transport) {
            $0.cache = cache
            $0.retry = .none
        }
        _ = try await client.send(endpoint)
        let again = try await client.response(endpoint)
        #expect(again.fromCache && again.value == Resource(name: "kept", version: 3))
        #expect(transport.requests[1].header("If-None-Match") == "\"v3\"")
        #expect(cache.count == 1)
    }

    @Test("Vary: each Accept-Language gets its own entry")
    func vary() async throws {
        let transport = ScriptedTransport([
            .json(["name": "hello", "version": 1], headers: [.eTag: "\"en\"", .vary: "Accept-Language"]),
            .json(["name": "bonjour", "version": 1], headers: [.eTag: "\"fr\"", .vary: "accept-language"]),
            .status(304, headers: [.vary: "Accept-Language"]),
            .status(304, headers: [.vary: "Accept-Language"]),
        ])
        let client = try makeCachingClient(transport)
        func greeting(_ language: String) -> Endpoint<Resource> {
            Endpoint(.get, "greeting", headers: [.acceptLanguage: language])
        }
        _ = try await client.send(greeting("en"))
        let french = try await client.response(greeting("fr"))
        let english = try await client.response(greeting("en"))
        let frenchAgain = try await client.response(greeting("fr"))
        #expect(transport.requests[1].header("If-None-Match") == nil)
        #expect(french.value.name == "bonjour" && !french.fromCache)
        #expect(transport.requests[2].header("If-None-Match") == "\"en\"")
        #expect(english.value.name == "hello" && english.fromCache)
        #expect(transport.requests[3].header("If-None-Match") == "\"fr\"")
        #expect(frenchAgain.value.name == "bonjour" && frenchAgain.fromCache)
    }

    @Test("Vary: * is never stored")
    func varyStar() async throws {
        let cache = ResponseCache()
        let transport = ScriptedTransport([.json(["name": "x", "version": 1], headers: [.eTag: "\"x\"", .vary: "*"])])
        _ = try await makeCachingClient(transport, cache: cache).send(endpoint)
        #expect(cache.count == 0)
    }

    @Test("LRU by entries: the least recently used entry goes first")
    func lruByEntries() async throws {
        let hooks = CacheAndPageRecorder()
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
        #expect(cache.count == 2)
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
        #expect(cache.count == 2)
        _ = try await get("a")
        _ = try await get("c")
        #expect(cache.count == 2)
        #expect(cache.totalBytes <= 2 * 1400)
        #expect(try await get("a").fromCache)
        #expect(try await get("c").fromCache)
        #expect(try await get("b").fromCache == false)

        let tiny = ResponseCache(maxBytes: 500)
        let small = try makeCachingClient(transport, cache: tiny)
        _ = try await small.send(Endpoint<Data>(.get, "blob/big"))
        #expect(tiny.count == 0)
    }

    @Test("A successful write drops the URL's entries", arguments: [HTTPRequest.Method.put, .post, .patch, .delete])
    func invalidationAfterWrite(method: HTTPRequest.Method) async throws {
        let hooks = CacheAndPageRecorder()
        let cache = ResponseCache()
        let transport = ScriptedTransport([
            .json(["name": "one", "version": 1], headers: [.eTag: "\"v1\""]),
            .status(204),
            .json(["name": "one", "version": 2], headers: [.eTag: "\"v2\""]),
        ])
        let client = try makeCachingClient(transport, cache: cache, hooks: hooks)
        _ = try await client.send(endpoint)
        _ = try await client.send(Endpoint<NoContent>(method, "resources/1", body: .json(["version": 2])))
        #expect(cache.count == 0)
        let after = try await client.response(endpoint)
        #expect(transport.requests[2].header("If-None-Match") == nil)
        #expect(after.value.version == 2)
        #expect(hooks.events.cache.contains { $0.kind == .evicted && $0.reason == .invalidated })
    }

    @Test("A failed write keeps the entry; a write elsewhere keeps it too")
    func failedWriteKeepsEntry() async throws {
        let cache = ResponseCache()
        let transport = ScriptedTransport([
            .json(["name": "one", "version": 1], headers: [.eTag: "\"v1\""]),
            .status(500),
            .status(204),
        ])
        let client = try makeCachingClient(transport, cache: cache)
        _ = try await client.send(endpoint)
        _ = try? await client.send(Endpoint<NoContent>(.put, "resources/1"))
        _ = try await client.send(Endpoint<NoContent>(.put, "resources/2"))
        #expect(cache.count == 1)
    }

    @Test("A write's same-origin Location is invalidated too")
    func locationInvalidated() async throws {
        let cache = ResponseCache()
        let transport = ScriptedTransport([
            .json(["name": "one", "version": 1], headers: [.eTag: "\"v1\""]),
            .status(201, headers: [.location: "/v1/resources/1"]),
        ])
        let client = try makeCachingClient(transport, cache: cache)
        _ = try await client.send(endpoint)
        _ = try await client.send(Endpoint<NoContent>(.post, "resources"))
        #expect(cache.count == 0)
    }

    @Test("Revalidation goes through retry: 503 then 304 serves the stored body")
    func revalidationRetried() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport([
            .json(["name": "one", "version": 1], headers: [.eTag: "\"v1\""]),
            .status(503),
            .status(304),
        ])
        let client = try makeCachingClient(transport) {
            $0.retry = RetryPolicy(maxAttempts: 3, jitter: .none)
            $0.timeSource = clock
        }
        _ = try await client.send(endpoint)
        let second = try await client.response(endpoint)
        #expect(second.fromCache)
        #expect(transport.requests.count == 3)
        #expect(transport.requests[1].header("If-None-Match") == "\"v1\"")
        #expect(transport.requests[2].header("If-None-Match") == "\"v1\"")
        #expect(clock.sleeps == [.seconds(1)])
    }

    @Test("A caller's own If-None-Match bypasses the cache: the 304 is the caller's")
    func callerConditionalBypasses() async throws {
        let cache = ResponseCache()
        let transport = ScriptedTransport([
            .json(["name": "one", "version": 1], headers: [.eTag: "\"v1\""]),
            .status(304),
        ])
        let client = try makeCachingClient(transport, cache: cache)
        _ = try await client.send(endpoint)
        let error = await apiError {
            _ = try await client.send(Endpoint<Data>(.get, "resources/1", headers: [.ifNoneMatch: "\"mine\""]))
        }
        #expect(error?.httpStatus == 304)
        #expect(transport.requests[1].header("If-None-Match") == "\"mine\"")
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

    @Test("removeAll and invalidate(_:) empty the cache on demand")
    func manualInvalidation() async throws {
        let cache = ResponseCache()
        let transport = ScriptedTransport([
            .json(["name": "one", "version": 1], headers: [.eTag: "\"v1\""]),
            .json(["name": "two", "version": 1], headers: [.eTag: "\"v2\""]),
        ])
        let client = try makeCachingClient(transport, cache: cache)
        _ = try await client.send(endpoint)
        _ = try await client.send(Endpoint<Resource>(.get, "resources/2"))
        #expect(cache.invalidate(try #require(URL(string: "https://api.example.com/v1/resources/1"))) == 1)
        #expect(cache.count == 1)
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalBytes == 0)
    }
}
