import APISandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

/// What `/_test/etag/{name}` serves before anyone replaces it.
private struct Versioned: Codable, Sendable, Equatable {
    var name: String
    var version: Int
}

/// One item of `/_test/pages`.
private struct Numbered: Codable, Sendable, Equatable {
    var id: Int
}

@Suite("Cache and pagination on the loopback sandbox")
struct CachePaginationLoopbackTests {
    private func sandboxClient(
        _ sandbox: Sandbox,
        _ transport: any HTTPTransport,
        configure: (inout ClientConfiguration) -> Void = { _ in }
    ) throws -> Client {
        try makeClient(sandbox, transport, timeout: .seconds(10 * SanitizerRun.slowdown), configure: configure)
    }

    @Test("ETag: If-None-Match → 304 → the cached body; a PUT invalidates it", arguments: TransportUnderTest.allCases)
    func etagRevalidation(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let hooks = HookRecorder()
            let client = try sandboxClient(sandbox, transport) {
                $0.cache = ResponseCache()
                $0.hooks = hooks
            }
            let endpoint = Endpoint<Versioned>(.get, "_test/etag/loopback")

            let first = try await client.response(endpoint)
            let second = try await client.response(endpoint)
            #expect(first.value == Versioned(name: "loopback", version: 1))
            #expect(first.fromCache == false)
            #expect(second.value == first.value)
            #expect(second.fromCache)
            #expect(second.headers[.eTag] == #""loopback-v1""#)
            #expect(hooks.events.requestEnds.map(\.status) == [200, 304])
            #expect(hooks.events.requestEnds.map(\.fromCache) == [false, true])
            #expect(hooks.events.cache.map(\.kind) == [.miss, .stored, .hit, .revalidated])

            _ = try await client.send(
                Endpoint<Data>(.put, "_test/etag/loopback", body: .json(["name": "loopback", "version": 2]))
            )
            let third = try await client.response(endpoint)
            #expect(third.fromCache == false)
            #expect(third.value == Versioned(name: "loopback", version: 2))
            #expect(hooks.events.requestEnds.last?.status == 200)
            #expect(sandbox.counters().requestsByPath["/_test/etag/loopback"] == 4)
        }
    }

    @Test("A 3-page Link walk with X-Total-Count, and maxPages truncation", arguments: TransportUnderTest.allCases)
    func threePageWalk(kind: TransportUnderTest) async throws {
        try await withContract(kind) { sandbox, transport in
            let hooks = HookRecorder()
            let client = try sandboxClient(sandbox, transport) { $0.hooks = hooks }
            let endpoint = Endpoint<[Numbered]>(.get, "_test/pages", query: ["total": 25, "per_page": 10])

            let all = try await client.paginate(endpoint).collect()
            #expect(all.map(\.id) == Array(1...25))
            #expect(all.meta == ListMeta(totalCount: 25, truncated: false, pageCount: 3))
            #expect(hooks.events.pages.map(\.index) == [0, 1, 2])
            #expect(hooks.events.pages.map(\.hasNext) == [true, true, false])

            var streamed: [Int] = []
            for try await item in client.paginate(endpoint) { streamed.append(item.id) }
            #expect(streamed == Array(1...25))

            let two = try await client.paginate(endpoint, options: PaginationOptions(maxPages: 2)).collect()
            #expect(two.count == 20)
            #expect(two.meta.truncated)
            #expect(sandbox.counters().requestsByPath["/_test/pages"] == 8)
        }
    }

    @Test("Polling a real server: unchanged polls are 304s, a change is yielded")
    func pollingRevalidates() async throws {
        try await withContract(TransportUnderTest.urlSession) { sandbox, transport in
            let clock = TestClock(mode: .manual)
            let hooks = HookRecorder()
            let client = try sandboxClient(sandbox, transport) {
                $0.timeSource = clock
                $0.hooks = hooks
            }
            let polling = client.poll(Endpoint<Versioned>(.get, "_test/etag/polled"), every: .seconds(5))
            let task = Task {
                var iterator = polling.makeAsyncIterator()
                let first = try await iterator.next()
                let second = try await iterator.next()
                return [first, second]
            }
            await clock.waitForSleepers(1)  // first value fetched, waiting to poll again
            clock.advance(by: .seconds(5))
            await clock.waitForSleepers(1)  // the poll was a 304: no change, waiting again
            let writer = try sandboxClient(sandbox, transport)
            _ = try await writer.send(
                Endpoint<Data>(.put, "_test/etag/polled", body: .json(["name": "polled", "version": 9]))
            )
            clock.advance(by: .seconds(5))
            let values = try await task.value
            #expect(values == [Versioned(name: "polled", version: 1), Versioned(name: "polled", version: 9)])
            #expect(hooks.events.requestEnds.map(\.status) == [200, 304, 200])
            #expect(hooks.events.requestEnds.map(\.fromCache) == [false, true, false])
        }
    }
}
