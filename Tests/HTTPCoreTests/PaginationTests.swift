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

struct BrokenPage: Error, CustomStringConvertible {
    var description: String { "page 1 is broken" }
}

@Suite("Pagination")
struct PaginationTests {
    let endpoint = Endpoint<[PageItem]>(.get, "items")

    /// `pages` whose page 2 waits on `gate` until its request is cancelled, which it notes in
    /// `cancelled`.
    static func stallingPageTwo(
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
    static func settle(_ condition: () -> Bool) async -> Bool {
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
        let error = await caughtAPIError {
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
}
