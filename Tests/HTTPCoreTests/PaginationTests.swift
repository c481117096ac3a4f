import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

struct PageItem: Codable, Sendable, Equatable {
    var id: Int
}

/// Serves `pages` of ids under https://api.example.com/v1/items?page=N (no page parameter is
/// page 1), each linking to the next with a relative link unless `link` says otherwise.
func pagedTransport(
    _ pages: [[Int]],
    totalHeader: Bool = true,
    clock: TestClock? = nil,
    link: @escaping @Sendable (_ page: Int, _ pageCount: Int) -> String? = { page, count in
        page < count ? #"</v1/items?page=\#(page + 1)>; rel="next""# : nil
    },
    before: @escaping @Sendable (_ page: Int) async throws -> Void = { _ in }
) -> ScriptedTransport {
    ScriptedTransport(clock: clock) { request in
        let number = request.queryItems.first { $0.name == "page" }?.value.flatMap { Int($0) } ?? 1
        try await before(number)
        let ids = pages.indices.contains(number - 1) ? pages[number - 1] : []
        var headers: HTTPFields = [.contentType: "application/json"]
        if let link = link(number, pages.count) { headers[.link] = link }
        if totalHeader { headers[.xTotalCount] = String(pages.joined().count) }
        let body = "[" + ids.map { #"{"id":\#($0)}"# }.joined(separator: ",") + "]"
        return TransportResponse(
            response: HTTPResponse(status: .ok, headerFields: headers),
            body: Data(body.utf8),
            url: request.url
        )
    }
}

private struct BrokenPage: Error, CustomStringConvertible {
    var description: String { "page 1 is broken" }
}

@Suite("Pagination")
struct PaginationTests {
    private let endpoint = Endpoint<[PageItem]>(.get, "items")

    /// `pages` whose page 2 waits on `gate` until its request is cancelled, which it notes in
    /// `cancelled`.
    private static func stallingPageTwo(
        _ pages: [[Int]],
        gate: TestClock,
        cancelled: Locked<Bool>
    ) -> ScriptedTransport {
        pagedTransport(
            pages,
            before: { page in
                guard page == 2 else { return }
                do {
                    try await gate.sleep(for: .seconds(3600))
                } catch {
                    cancelled.withLock { $0 = true }
                    throw error
                }
            }
        )
    }

    /// Yields until `condition` holds (bounded, so a bug fails the test instead of hanging it).
    private static func settle(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<200_000 {
            if condition() { return true }
            await Task.yield()
        }
        return condition()
    }

    @Test("3 pages followed by their Link headers, relative links resolved against the response URL")
    func threePages() async throws {
        let transport = pagedTransport([[1, 2], [3, 4], [5]])
        let client = try makeClient(transport)
        var ids: [Int] = []
        for try await item in client.paginate(endpoint) { ids.append(item.id) }
        #expect(ids == [1, 2, 3, 4, 5])
        #expect(
            transport.requests.map(\.url.absoluteString) == [
                "https://api.example.com/v1/items",
                "https://api.example.com/v1/items?page=2",
                "https://api.example.com/v1/items?page=3",
            ]
        )
    }

    @Test("collect(): items with total count, pageCount, not truncated at the natural end")
    func collectAll() async throws {
        let transport = pagedTransport([[1, 2], [3, 4], [5]])
        let result = try await makeClient(transport).paginate(endpoint).collect()
        #expect(result.map(\.id) == [1, 2, 3, 4, 5])
        #expect(result.meta == ListMeta(totalCount: 5, truncated: false, pageCount: 3))
        #expect(result.count == 5 && result[0].id == 1)
    }

    @Test("No total-count header → totalCount nil; a custom header name is read")
    func totalCountHeader() async throws {
        let plain = try await makeClient(pagedTransport([[1], [2]], totalHeader: false)).paginate(endpoint).collect()
        #expect(plain.meta.totalCount == nil)
        #expect(plain.meta.truncated == false)

        let custom = ScriptedTransport([.json([["id": 1]], headers: [HTTPField.Name("X-Total") ?? .age: "41"])])
        let result = try await makeClient(custom).paginate(
            endpoint,
            options: PaginationOptions(totalCountHeader: "X-Total")
        )
        .collect()
        #expect(result.meta.totalCount == 41)
        #expect(result.meta.truncated == false)
    }

    @Test("maxPages stops the walk with truncated = true")
    func maxPagesTruncation() async throws {
        let transport = pagedTransport([[1, 2], [3, 4], [5]])
        let result = try await makeClient(transport).paginate(endpoint, options: PaginationOptions(maxPages: 2))
            .collect()
        #expect(result.map(\.id) == [1, 2, 3, 4])
        #expect(result.meta == ListMeta(totalCount: 5, truncated: true, pageCount: 2))
        #expect(transport.requests.count == 2)
    }

    @Test("maxItems cuts within a page and stops fetching; truncated only when more existed")
    func maxItems() async throws {
        let transport = pagedTransport([[1, 2], [3, 4], [5]])
        let client = try makeClient(transport)
        let three = try await client.paginate(endpoint, options: PaginationOptions(maxItems: 3)).collect()
        #expect(three.map(\.id) == [1, 2, 3])
        #expect(three.meta.truncated)
        #expect(transport.requests.count == 2)

        let all = try await client.paginate(endpoint).collect(maxItems: 5)
        #expect(all.count == 5 && all.meta.truncated == false)

        let four = try await client.paginate(endpoint).collect(maxItems: 4)
        #expect(four.count == 4 && four.meta.truncated)

        // With no total count and no next link after the limit, nothing was left out.
        let exact = try await makeClient(pagedTransport([[1, 2]], totalHeader: false)).paginate(endpoint).collect(
            maxItems: 2
        )
        #expect(exact.count == 2 && exact.meta.truncated == false)
    }

    @Test(
        "Limits of zero send no request",
        arguments: [PaginationOptions(maxPages: 0), PaginationOptions(maxItems: 0)]
    )
    func zeroLimits(options: PaginationOptions) async throws {
        let transport = pagedTransport([[1]])
        let result = try await makeClient(transport).paginate(endpoint, options: options).collect()
        #expect(result.isEmpty && result.meta.pageCount == 0)
        #expect(transport.requests.isEmpty)
    }

    @Test("Items under an object key: from the options, or the operation's metadata (snake_case key)")
    func itemsKey() async throws {
        let transport = ScriptedTransport([
            .json(["todos": [["id": 1], ["id": 2]], "meta": ["x": 1]]),
            .json(["todo_items": [["id": 3]]]),
        ])
        let client = try makeClient(transport)
        let keyed = try await client.paginate(endpoint, options: PaginationOptions(itemsKey: "todos")).collect()
        #expect(keyed.map(\.id) == [1, 2])

        var withMetadata = endpoint
        withMetadata.operation.pagination = PaginationMetadata(pageSize: 50, itemsKey: "todo_items")
        let fromMetadata = try await client.paginate(withMetadata).collect()
        #expect(fromMetadata.map(\.id) == [3])
    }

    @Test("A page without the items key fails with a decoding api_error")
    func itemsKeyMissing() async throws {
        let transport = ScriptedTransport([.json(["other": []])])
        let client = try makeClient(transport)
        let error = await apiError {
            _ = try await client.paginate(endpoint, options: PaginationOptions(itemsKey: "todos")).collect()
        }
        #expect(error?.code == .apiError)
        #expect(error?.message.contains("todos") == true)
    }

    @Test("Single-page mode fetches page N only")
    func singlePage() async throws {
        let transport = pagedTransport([[1, 2], [3, 4], [5]])
        let client = try makeClient(transport)
        let second = try await client.paginate(
            Endpoint<[PageItem]>(.get, "items", query: ["page": 9, "per_page": 2]),
            options: PaginationOptions(page: 2)
        ).collect()
        #expect(second.map(\.id) == [3, 4])
        #expect(second.meta.truncated)
        #expect(second.meta.pageCount == 1)
        #expect(transport.requests.count == 1)
        #expect(transport.requests[0].queryItems.filter { $0.name == "page" }.map(\.value) == ["2"])

        let last = try await client.paginate(endpoint, options: PaginationOptions(page: 3)).collect()
        #expect(last.map(\.id) == [5])
        // A pinned last page is whole: nothing after it, whatever the total count says.
        #expect(last.meta.truncated == false)
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        var name: String
        var next: String
        var messageFragment: String
        var testDescription: String { name }
    }

    @Test(
        "A next link leaving the origin is refused before any request is sent there",
        arguments: [
            Refusal(
                name: "cross-origin",
                next: "https://evil.example.com/v1/items?page=2",
                messageFragment: "another origin"
            ),
            Refusal(
                name: "https → http downgrade",
                next: "http://api.example.com/v1/items?page=2",
                messageFragment: "downgrades"
            ),
            Refusal(
                name: "other port",
                next: "https://api.example.com:8443/v1/items?page=2",
                messageFragment: "another origin"
            ),
            Refusal(name: "non-http scheme", next: "javascript:alert(1)", messageFragment: "not an http"),
        ]
    )
    func refusedNextLink(_ refusal: Refusal) async throws {
        let transport = pagedTransport([[1, 2], [3]]) { page, _ in
            page == 1 ? #"<\#(refusal.next)>; rel="next""# : nil
        }
        let client = try makeClient(transport)
        var iterator = client.paginate(endpoint).pages.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.items.map(\.id) == [1, 2])
        let error = await apiError { _ = try await iterator.next() }
        #expect(error?.code == .apiError)
        #expect(error?.message.contains(refusal.messageFragment) == true)
        #expect(transport.requests.count == 1)
        #expect(try await iterator.next() == nil)

        let collectError = await apiError { _ = try await client.paginate(endpoint).collect() }
        #expect(collectError?.code == .apiError)
        #expect(transport.requests.count == 2)
    }

    @Test("The default port spelled out is the same origin")
    func explicitDefaultPort() async throws {
        let transport = pagedTransport([[1], [2]]) { page, _ in
            page == 1 ? #"<https://API.example.com:443/v1/items?page=2>; rel="next""# : nil
        }
        let result = try await makeClient(transport).paginate(endpoint).collect()
        #expect(result.map(\.id) == [1, 2])
    }

    @Test("A next link to a page already fetched stops with an error instead of looping")
    func loopDetection() async throws {
        let transport = pagedTransport([[1], [2], [3]]) { page, _ in
            page == 2 ? #"</v1/items>; rel="next""# : #"</v1/items?page=\#(page + 1)>; rel="next""#
        }
        let client = try makeClient(transport)
        let error = await apiError { _ = try await client.paginate(endpoint).collect() }
        #expect(error?.code == .apiError)
        #expect(error?.message.contains("already fetched") == true)
        #expect(transport.requests.count == 2)

        let selfLink = pagedTransport([[1]]) { _, _ in #"</v1/items>; rel="next""# }
        let selfError = await apiError { _ = try await makeClient(selfLink).paginate(endpoint).collect() }
        #expect(selfError?.message.contains("already fetched") == true)
        #expect(selfLink.requests.count == 1)
    }

    @Test("Empty pages that keep linking onward count against maxPages")
    func emptyPagesCount() async throws {
        let transport = pagedTransport([], totalHeader: false) { page, _ in
            #"</v1/items?page=\#(page + 1)>; rel="next""#
        }
        let result = try await makeClient(transport).paginate(endpoint, options: PaginationOptions(maxPages: 5))
            .collect()
        #expect(result.isEmpty)
        #expect(result.meta.pageCount == 5)
        #expect(transport.requests.count == 5)
    }

    @Test("Garbage in the Link header ends the walk after one page, no crash")
    func garbageLink() async throws {
        let transport = pagedTransport([[1], [2]]) { _, _ in #"<<>>;;;rel="next"<"# }
        let result = try await makeClient(transport).paginate(endpoint).collect()
        #expect(result.map(\.id) == [1])
        #expect(transport.requests.count == 1)
    }

    @Test("Every page goes through the whole chain: retry, hooks and a page event each")
    func fullChainPerPage() async throws {
        let clock = TestClock()
        let hooks = CacheAndPageRecorder()
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
        let hooks = CacheAndPageRecorder()
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

    @Test("Prefetch: page n+1 is requested while page n is consumed, and never more than one ahead")
    func prefetchOneAhead() async throws {
        let transport = pagedTransport([[1], [2], [3], [4]])
        let client = try makeClient(transport)
        var iterator = client.paginate(endpoint).pages.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.index == 0)
        #expect(await Self.settle { transport.requests.count == 2 })
        for _ in 0..<1000 { await Task.yield() }
        #expect(transport.requests.count == 2)

        let second = try await iterator.next()
        #expect(second?.index == 1 && second?.items.first?.id == 2)
        #expect(await Self.settle { transport.requests.count == 3 })
        for _ in 0..<1000 { await Task.yield() }
        #expect(transport.requests.count == 3)
    }

    @Test("While the walk waits for a page, the next page is requested before that page is decoded")
    func nextRequestOverlapsDecode() async throws {
        let secondRequested = DispatchSemaphore(value: 0)
        let transport = pagedTransport([[1], [2], [3]]) { page, count in
            page < count ? #"</v1/items?page=\#(page + 1)>; rel="next""# : nil
        } before: { page in
            if page == 2 { secondRequested.signal() }
        }
        let overlapped = Locked<[Bool]>([])
        var endpoint = endpoint
        endpoint.decoder = ResponseDecoder { body, _, json in
            let items = try json.decode([PageItem].self, from: body)
            if items.first?.id == 1 {
                // Page 2's request goes out while this decode runs. Bounded, so a walk that
                // requests page 2 only after the decode fails here instead of hanging.
                let arrived = secondRequested.wait(timeout: .now() + 30) == .success
                overlapped.withLock { $0.append(arrived) }
            }
            return items
        }
        let result = try await makeClient(transport).paginate(endpoint).collect()
        #expect(result.map(\.id) == [1, 2, 3])
        #expect(overlapped.withLock { $0 } == [true])
        #expect(transport.requests.count == 3)
    }

    @Test("A page that fails to decode cancels the next page's request if it already went out")
    func decodeFailureCancelsNext() async throws {
        let gate = TestClock(mode: .manual)
        let cancelled = Locked(false)
        let transport = Self.stallingPageTwo([[1], [2], [3]], gate: gate, cancelled: cancelled)
        var endpoint = endpoint
        endpoint.decoder = ResponseDecoder { _, _, _ in
            throw BrokenPage()
        }
        let error = await apiError { _ = try await makeClient(transport).paginate(endpoint).collect() }
        #expect(error?.message.contains("page 1 is broken") == true)
        // Page 2's request may not have reached the transport before the walk gave up; if it
        // did, it must not be left waiting.
        #expect(await Self.settle { transport.requests.count == 1 || cancelled.withLock { $0 } })
        #expect(transport.requests.count <= 2)
    }

    @Test("Iterating from the main actor works (items and pages)")
    @MainActor
    func mainActorIteration() async throws {
        let client = try makeClient(pagedTransport([[1, 2], [3]]))
        var ids: [Int] = []
        for try await item in client.paginate(endpoint) { ids.append(item.id) }
        for try await page in client.paginate(endpoint).pages { ids += page.items.map(\.id) }
        #expect(ids == [1, 2, 3, 1, 2, 3])
    }

    @Test("Without prefetch nothing is fetched until asked for")
    func prefetchOff() async throws {
        let transport = pagedTransport([[1], [2]])
        let client = try makeClient(transport)
        var iterator = client.paginate(endpoint, options: PaginationOptions(prefetch: false)).makeAsyncIterator()
        _ = try await iterator.next()
        for _ in 0..<1000 { await Task.yield() }
        #expect(transport.requests.count == 1)
        #expect(try await iterator.next()?.id == 2)
        #expect(try await iterator.next() == nil)
    }

    @Test("The prefetch is cancelled when the consumer breaks after the first item")
    func prefetchCancelledOnBreak() async throws {
        let gate = TestClock(mode: .manual)
        let cancelled = Locked(false)
        let linked = Self.stallingPageTwo([[1, 2], [3, 4], [5]], gate: gate, cancelled: cancelled)
        let client = try makeClient(linked)
        var seen: [Int] = []
        for try await item in client.paginate(endpoint) {
            seen.append(item.id)
            // Wait until the prefetch of page 2 is in flight, then stop consuming.
            #expect(await Self.settle { gate.sleeperCount == 1 })
            break
        }
        #expect(seen == [1])
        #expect(await Self.settle { cancelled.withLock { $0 } })
        #expect(linked.requests.count == 2)
    }
}
