import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

extension PaginationTests {
    @Test("Every page goes through the whole chain: retry, hooks and a page event each")
    func fullChainPerPage() async throws {
        let clock = TestClock()
        let hooks = HookRecorder()
        let failures = Locked(1)
        let transport = pagedTransport(
            [[1, 2], [3, 4], [5]],
            clock: clock,
            before: { page in
                let fail = failures.withLock { remaining -> Bool in
                    guard page == 2, remaining > 0 else { return false }
                    remaining -= 1
                    return true
                }
                if fail { throw TransportError(.connectionLost, requestMayHaveBeenSent: true, message: "reset") }
            }
        )
        let client = try makeClient(transport) {
            $0.timeSource = clock
            $0.hooks = hooks
            $0.retry = RetryPolicy(maxAttempts: 3, jitter: .none)
            $0.defaultHeaders = [.authorization: "Bearer page-token"]
        }
        let result = try await client.paginate(endpoint).collect()
        #expect(result.count == 5)
        #expect(transport.requests.count == 4)
        #expect(transport.requests.allSatisfy { $0.header("Authorization") == "Bearer page-token" })
        #expect(clock.sleeps == [.seconds(1)])
        let events = hooks.events
        #expect(events.operationEnds.count == 3)
        #expect(events.requestEnds.count == 4)
        #expect(events.pages.map(\.index) == [0, 1, 2])
        #expect(events.pages.map(\.itemCount) == [2, 2, 1])
        #expect(events.pages.map(\.hasNext) == [true, true, false])
        #expect(events.pages.allSatisfy { $0.totalCount == 5 })
    }

    @Test("Pages go through the cache: a second walk is three 304s served from the cache")
    func pagesThroughCache() async throws {
        let hooks = HookRecorder()
        let transport = ScriptedTransport(clock: nil) { request in
            let number = request.queryItems.first { $0.name == "page" }?.value.flatMap { Int($0) } ?? 1
            if request.header("If-None-Match") == "\"p\(number)\"" {
                return TransportResponse(response: HTTPResponse(status: .notModified), url: request.url)
            }
            var headers: HTTPFields = [.eTag: "\"p\(number)\""]
            if number < 3 { headers[.link] = #"</v1/items?page=\#(number + 1)>; rel="next""# }
            return TransportResponse(
                response: HTTPResponse(status: .ok, headerFields: headers),
                body: Data(#"[{"id":\#(number)}]"#.utf8),
                url: request.url
            )
        }
        let client = try makeCachingClient(transport, hooks: hooks)
        _ = try await client.paginate(endpoint).collect()
        var fromCache: [Bool] = []
        var ids: [Int] = []
        for try await page in client.paginate(endpoint).pages {
            fromCache.append(page.fromCache)
            ids += page.items.map(\.id)
        }
        #expect(ids == [1, 2, 3])
        #expect(fromCache == [true, true, true])
        #expect(hooks.events.pages.map(\.fromCache) == [false, false, false, true, true, true])
        #expect(transport.requests.suffix(3).allSatisfy { $0.header("If-None-Match") != nil })
    }
}
