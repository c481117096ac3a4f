import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

extension HookRecorder {
    /// What the cache did, in order.
    var cacheKinds: [CacheEvent.Kind] { events.cache.map(\.kind) }
}

/// A client with `cache` on `transport`, recording hook events, retries off unless asked.
func makeCachingClient(
    _ transport: ScriptedTransport,
    cache: ResponseCache = ResponseCache(),
    hooks: HookRecorder = HookRecorder(),
    configure: (inout ClientConfiguration) -> Void = { _ in }
) throws -> Client {
    try makeClient(transport) {
        $0.cache = cache
        $0.hooks = hooks
        $0.retry = .none
        configure(&$0)
    }
}

/// A caching client whose first call has stored `resources/1` at version 1 (ETag `"v1"`), for
/// tests of what later answers do to that entry.
struct StoredResource {
    let cache = ResponseCache()
    let hooks = HookRecorder()
    let transport: ScriptedTransport
    let client: Client

    /// Stores the entry; `then` is what the server answers after that first call.
    init(
        then replies: [ScriptedTransport.Step],
        configure: (inout ClientConfiguration) -> Void = { _ in }
    ) async throws {
        transport = ScriptedTransport([.json(["name": "one", "version": 1], headers: [.eTag: "\"v1\""])] + replies)
        client = try makeCachingClient(transport, cache: cache, hooks: hooks, configure: configure)
        _ = try await client.send(Endpoint<Resource>(.get, "resources/1"))
    }
}

struct Resource: Codable, Sendable, Equatable {
    var name: String
    var version: Int
}

@Suite("Cache")
struct CacheTests {
    let endpoint = Endpoint<Resource>(.get, "resources/1")

    @Test("ETag: stored, then If-None-Match → 304 → the stored body, fromCache on result and request hook")
    func etagRevalidation() async throws {
        let hooks = HookRecorder()
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
        // The same tag, weakened on the way (as compressing proxies do): a match by weak comparison.
        var notModified: HTTPFields = [.eTag: "W/\"v1\"", .contentType: "text/plain", .cacheControl: "max-age=0"]
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
            .status(304, headers: [.eTag: "W/\"v1\""]),
        ])
        let client = try makeCachingClient(transport)

        _ = try await client.response(endpoint)
        let second = try await client.response(endpoint)
        let third = try await client.response(endpoint)

        #expect(second.headers[.eTag] == "W/\"v1\"")
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
        #expect(transport.requests[2].header("If-None-Match") == "W/\"v1\"")
        #expect(third.fromCache == true)
    }

    @Test(
        "A 304 naming another representation is not served from the kept body: asked again unconditionally",
        arguments: [
            [HTTPField.Name.eTag: "\"v1\""] as HTTPFields, [.lastModified: "Tue, 14 Nov 2023 22:13:20 GMT"],
            // A tagged entry, and a 304 from something that looked only at If-Modified-Since.
            [.eTag: "\"v1\"", .lastModified: "Tue, 14 Nov 2023 22:13:20 GMT"],
        ]
    )
    func mismatchedNotModified(stored validator: HTTPFields) async throws {
        let other: HTTPFields =
            validator[.lastModified] == nil ? [.eTag: "\"v2\""] : [.lastModified: "Wed, 15 Nov 2023 22:13:20 GMT"]
        let transport = ScriptedTransport([
            .json(["name": "one", "version": 1], headers: validator),
            .status(304, headers: other),
            .json(["name": "one", "version": 2], headers: other),
        ])
        let hooks = HookRecorder()
        let client = try makeCachingClient(transport, hooks: hooks)
        _ = try await client.send(endpoint)
        let second = try await client.response(endpoint)
        #expect(second.value.version == 2 && !second.fromCache)
        try #require(transport.requests.count == 3)
        #expect(transport.requests[2].header("If-None-Match") == nil)
        #expect(transport.requests[2].header("If-Modified-Since") == nil)
        #expect(hooks.events.cache.map(\.kind) == [.miss, .stored, .hit, .stored])
    }

    @Test("An entry a storage gives back with an impossible status is a miss, not a crash")
    func impossibleStatusIsMiss() async throws {
        let storage = MemoryCacheStorage()
        let transport = ScriptedTransport([
            .json(["name": "one", "version": 1], headers: [.eTag: "\"v1\""]),
            .json(["name": "one", "version": 2], headers: [.eTag: "\"v2\""]),
        ])
        let client = try makeCachingClient(transport, cache: ResponseCache(storage: storage))
        _ = try await client.send(endpoint)
        var damaged = try #require(storage.summaries().first.flatMap { storage.entry(forKey: $0.key) })
        damaged.status = 1000
        storage.store(damaged)
        let again = try await client.response(endpoint)
        #expect(again.value.version == 2 && !again.fromCache)
        #expect(transport.requests[1].header("If-None-Match") == nil)
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
        let stored = try await StoredResource(then: [
            .json(["name": "one", "version": 2], headers: [.eTag: "\"v2\""]),
            .status(304),
        ])
        let second = try await stored.client.response(endpoint)
        let third = try await stored.client.response(endpoint)
        #expect(second.fromCache == false && second.value.version == 2)
        #expect(third.fromCache && third.value.version == 2)
        #expect(stored.transport.requests[2].header("If-None-Match") == "\"v2\"")
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
        #expect(try await cache.count == 1)
    }

    @Test("Revalidation goes through retry: 503 then 304 serves the stored body")
    func revalidationRetried() async throws {
        let clock = TestClock()
        let stored = try await StoredResource(then: [
            .status(503),
            .status(304),
        ]) {
            $0.retry = RetryPolicy(maxAttempts: 3, jitter: .none)
            $0.timeSource = clock
        }
        let second = try await stored.client.response(endpoint)
        #expect(second.fromCache)
        #expect(stored.transport.requests.count == 3)
        #expect(stored.transport.requests[1].header("If-None-Match") == "\"v1\"")
        #expect(stored.transport.requests[2].header("If-None-Match") == "\"v1\"")
        #expect(clock.sleeps == [.seconds(1)])
    }

    @Test("A caller's own If-None-Match bypasses the cache: the 304 is the caller's")
    func callerConditionalBypasses() async throws {
        let stored = try await StoredResource(then: [.status(304)])
        let error = await caughtAPIError {
            _ = try await stored.client.send(Endpoint<Data>(.get, "resources/1", headers: [.ifNoneMatch: "\"mine\""]))
        }
        #expect(error?.httpStatus == 304)
        #expect(stored.transport.requests[1].header("If-None-Match") == "\"mine\"")
    }
}
