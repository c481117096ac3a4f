import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

/// What a walk that stops early hands back, and what `truncated` means.
@Suite("Pagination: stopping early loses nothing")
struct PaginationStopTests {
    private let endpoint = Endpoint<[PageItem]>(.get, "items")

    /// Three pages whose second links to `next` instead of page 3.
    private static func refusing(_ next: String) -> ScriptedTransport {
        pagedTransport([[1, 2], [3, 4], [5]]) { page, _ in
            page == 1 ? #"</v1/items?page=2>; rel="next""# : page == 2 ? #"<\#(next)>; rel="next""# : nil
        }
    }

    @Test(
        "collect() throws the refusal with the items fetched before it",
        arguments: [
            "https://evil.example.com/v1/items?page=3", "http://api.example.com/v1/items?page=3",
            "https://api.example.com/v1/items?page=2",
        ]
    )
    func collectKeepsItems(next: String) async throws {
        let transport = Self.refusing(next)
        let error = try #require(
            await caughtAPIError { _ = try await makeClient(transport).paginate(endpoint).collect() }
        )
        #expect(error.code == .apiError)
        let partial = try #require(error.partialList(of: PageItem.self))
        #expect(partial.map(\.id) == [1, 2, 3, 4])
        #expect(partial.meta == ListMeta(totalCount: 5, truncated: true, pageCount: 2))
        #expect(error.partialList(of: String.self) == nil)
        #expect(transport.requests.count == 2)
    }

    @Test("for try await hands out every item before the error; .pages every page")
    func iterationKeepsItems() async throws {
        let client = try makeClient(Self.refusing("https://evil.example.com/v1/items?page=3"))
        var ids: [Int] = []
        let error = await caughtAPIError {
            for try await item in client.paginate(endpoint) { ids.append(item.id) }
        }
        #expect(ids == [1, 2, 3, 4])
        #expect(error?.message.contains("another origin") == true)

        var pages: [[Int]] = []
        let pagesError = await caughtAPIError {
            for try await page in client.paginate(endpoint).pages { pages.append(page.items.map(\.id)) }
        }
        #expect(pages == [[1, 2], [3, 4]])
        #expect(pagesError?.code == .apiError)
    }

    @Test("A later page that fails keeps the earlier pages' items; a first page that fails has none")
    func failedPage() async throws {
        let later = ScriptedTransport([
            .json([["id": 1]], headers: [.link: #"</v1/items?page=2>; rel="next""#]),
            .status(503),
        ])
        let error = try #require(
            await caughtAPIError {
                _ = try await makeClient(later) { $0.retry = .none }.paginate(endpoint).collect()
            }
        )
        #expect(error.httpStatus == 503)
        #expect(error.partialList(of: PageItem.self)?.map(\.id) == [1])
        #expect(error.partialList(of: PageItem.self)?.meta.truncated == true)

        let first = ScriptedTransport([.status(503)])
        let firstError = await caughtAPIError {
            _ = try await makeClient(first) { $0.retry = .none }.paginate(endpoint).collect()
        }
        #expect(firstError?.httpStatus == 503)
        #expect(firstError?.partialList(of: PageItem.self) == nil)
    }

    @Test("truncated: more on the server than returned; a pinned page says so only by its next link")
    func truncatedMeansMoreAfter() async throws {
        // The total count (5) is more than any one page holds; only the next link decides.
        let transport = pagedTransport([[1, 2], [3, 4], [5]])
        let client = try makeClient(transport)
        let middle = try await client.paginate(endpoint, options: PaginationOptions(page: 2)).collect()
        #expect(middle.meta == ListMeta(totalCount: 5, truncated: true, pageCount: 1))
        let last = try await client.paginate(endpoint, options: PaginationOptions(page: 3)).collect()
        #expect(last.meta == ListMeta(totalCount: 5, truncated: false, pageCount: 1))
        let first = try await client.paginate(endpoint, options: PaginationOptions(page: 1)).collect()
        #expect(first.meta.truncated)

        // A stale total count does not make a finished walk truncated, nor a cut one whole.
        let stale = pagedTransport(
            [[1], [2]],
            link: { page, count in
                page < count ? #"</v1/items?page=\#(page + 1)>; rel="next""# : nil
            }
        )
        let whole = try await makeClient(stale).paginate(endpoint).collect()
        #expect(whole.meta.truncated == false)
        let cut = try await makeClient(pagedTransport([[1], [2], [3]])).paginate(endpoint).collect(maxItems: 1)
        #expect(cut.meta.truncated)
    }

    @Test("A malformed link-value before the next link does not end the walk")
    func malformedLinkValue() async throws {
        let transport = pagedTransport([[1], [2]]) { page, _ in
            page == 1
                ? #"<>; rel="next", junk<x>, </v1/items?page=2>; rel="next"; =bad, </v1/items?page=2>; rel="next""#
                : nil
        }
        let result = try await makeClient(transport).paginate(endpoint).collect()
        #expect(result.map(\.id) == [1, 2])
        #expect(result.meta.truncated == false)
    }
}
