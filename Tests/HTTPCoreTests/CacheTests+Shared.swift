import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

/// A shared storage in memory that can be told to fail, standing in for a database.
final class FakeSharedStorage: SharedCacheStorage {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "the fake storage is down" }
    }

    let maxBytes: Int
    private let state = Locked((entries: [String: CachedResponse](), order: [String](), failing: false))

    init(maxBytes: Int = 1 << 20) { self.maxBytes = maxBytes }

    var isFailing: Bool {
        get { state.withLock { $0.failing } }
        set { state.withLock { $0.failing = newValue } }
    }

    var keys: Set<String> { state.withLock { Set($0.entries.keys) } }

    private func check() throws {
        if isFailing { throw Failure() }
    }

    func entry(matching query: CacheQuery) async throws -> CachedResponse? {
        try check()
        return state.withLock { state in
            state.entries.values.first {
                $0.primaryKey == query.primaryKey && $0.key == query.key(varyingOn: $0.varyHeaders)
            }
        }
    }

    func store(_ entry: CachedResponse) async throws -> [CacheEntrySummary] {
        try check()
        return state.withLock { state in
            var dropped: [CacheEntrySummary] = []
            for other in state.entries.values
            where other.primaryKey == entry.primaryKey && other.key != entry.key
                && other.varyHeaders != entry.varyHeaders
            {
                dropped.append(other.summary)
                state.entries[other.key] = nil
            }
            state.order.removeAll { $0 == entry.key }
            state.entries[entry.key] = entry
            state.order.append(entry.key)
            while state.entries.values.reduce(0, { $0 + $1.byteCount }) > maxBytes, let oldest = state.order.first {
                state.order.removeFirst()
                if let gone = state.entries.removeValue(forKey: oldest) { dropped.append(gone.summary) }
            }
            state.order.removeAll { state.entries[$0] == nil }
            return dropped
        }
    }

    func removeEntry(forKey key: String) async throws -> CacheEntrySummary? {
        try check()
        return state.withLock { $0.entries.removeValue(forKey: key)?.summary }
    }

    func removeEntries(forURLKey urlKey: String) async throws -> [CacheEntrySummary] {
        try check()
        return state.withLock { state in
            let matching = state.entries.values.filter { $0.urlKey == urlKey }
            for entry in matching { state.entries[entry.key] = nil }
            return matching.map(\.summary)
        }
    }

    func removeAll() async throws {
        try check()
        state.withLock { $0.entries.removeAll() }
    }

    func usage() async throws -> CacheUsage {
        try check()
        return state.withLock { state in
            CacheUsage(entryCount: state.entries.count, byteCount: state.entries.values.reduce(0) { $0 + $1.byteCount })
        }
    }
}

@Suite("Cache on a shared storage")
struct SharedCacheTests {
    private let endpoint = Endpoint<Resource>(.get, "resources/1")

    private func revalidating() -> ScriptedTransport { revalidatingTransport(name: "shared") }

    @Test("Two caches on one shared storage: what one stored is a 304 revalidation for the other")
    func sharedBetweenCaches() async throws {
        let storage = FakeSharedStorage()
        _ = try await makeCachingClient(revalidating(), cache: ResponseCache(shared: storage)).send(endpoint)
        let transport = revalidating()
        let hooks = HookRecorder()
        let other = ResponseCache(shared: storage)
        let response = try await makeCachingClient(transport, cache: other, hooks: hooks).response(endpoint)
        #expect(response.fromCache)
        #expect(transport.requests.first?.header("If-None-Match") == "\"v1\"")
        #expect(hooks.cacheKinds == [.hit, .revalidated])
        #expect(try await other.count == 1)
        #expect(other.sharedStorage != nil && other.storage == nil)
    }

    @Test("A failing storage: the request succeeds as a miss and `unavailable` is reported")
    func failingStorageIsAMiss() async throws {
        let storage = FakeSharedStorage()
        let cache = ResponseCache(shared: storage)
        _ = try await makeCachingClient(revalidating(), cache: cache).send(endpoint)
        storage.isFailing = true
        let transport = revalidating()
        let hooks = HookRecorder()
        let response = try await makeCachingClient(transport, cache: cache, hooks: hooks).response(endpoint)
        #expect(!response.fromCache)
        #expect(response.value == Resource(name: "shared", version: 1))
        #expect(transport.requests.first?.header("If-None-Match") == nil)
        #expect(hooks.cacheKinds == [.unavailable, .miss, .unavailable])
        let failure = try #require(hooks.events.cache.first?.failure)
        #expect(failure.contains("fake storage is down"))
        await #expect(throws: FakeSharedStorage.Failure.self) { try await cache.count }
    }

    @Test("A write invalidates through the storage; a failed invalidation does not fail the write")
    func invalidation() async throws {
        let storage = FakeSharedStorage()
        let transport = ScriptedTransport([
            .json(["name": "one", "version": 1], headers: [.eTag: "\"v1\""]),
            .status(204),
            .json(["name": "one", "version": 1], headers: [.eTag: "\"v1\""]),
            .status(204),
        ])
        let hooks = HookRecorder()
        let client = try makeCachingClient(transport, cache: ResponseCache(shared: storage), hooks: hooks)
        _ = try await client.send(endpoint)
        #expect(storage.keys.count == 1)
        _ = try await client.send(Endpoint<Data>(.delete, "resources/1"))
        #expect(storage.keys.isEmpty)
        #expect(hooks.events.cache.last?.reason == .invalidated)
        _ = try await client.send(endpoint)
        storage.isFailing = true
        _ = try await client.send(Endpoint<Data>(.delete, "resources/1"))
        #expect(hooks.cacheKinds.last == .unavailable)
    }

    @Test("The storage's bound: an entry larger than it is not offered; evictions are reported")
    func boundAndEvictions() async throws {
        let storage = FakeSharedStorage(maxBytes: 1500)
        let cache = ResponseCache(shared: storage)
        #expect(cache.maxBytes == 1500)
        let hooks = HookRecorder()
        let body = String(repeating: "x", count: 900)
        let transport = ScriptedTransport(clock: nil) { request in
            TransportResponse(
                response: HTTPResponse(status: .ok, headerFields: [.eTag: "\"v1\""]),
                body: Data(#"{"name":"\#(request.url.path.hasSuffix("big") ? body + body : body)","version":1}"#.utf8),
                url: request.url
            )
        }
        let client = try makeCachingClient(transport, cache: cache, hooks: hooks)
        _ = try await client.send(Endpoint<Resource>(.get, "resources/1"))
        _ = try await client.send(Endpoint<Resource>(.get, "resources/2"))
        #expect(storage.keys.count == 1)
        #expect(hooks.events.cache.contains { $0.kind == .evicted && $0.reason == .capacity })
        _ = try await client.send(Endpoint<Resource>(.get, "resources/big"))
        #expect(storage.keys.count == 1)
        #expect(hooks.cacheKinds.suffix(1) == [.miss])
    }
}
