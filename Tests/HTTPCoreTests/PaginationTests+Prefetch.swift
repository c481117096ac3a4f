import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

extension PaginationTests {
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

    @Test("A call middleware that sends each page twice still walks every page, once each onward")
    func middlewareSendsTwice() async throws {
        let transport = pagedTransport([[1], [2], [3]])
        let client = try makeClient(transport) {
            $0.callMiddlewares = [
                ClosureMiddleware { request, body, context, next in
                    _ = try await next(request, body, context)
                    return try await next(request, body, context)
                }
            ]
        }
        let all = try await client.paginate(endpoint).collect()
        #expect(all.items.map(\.id) == [1, 2, 3])
        #expect(transport.requests.count == 6)
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
        let error = await caughtAPIError { _ = try await makeClient(transport).paginate(endpoint).collect() }
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
