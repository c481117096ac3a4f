import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

extension PaginationTests {
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
        let error = await caughtAPIError { _ = try await iterator.next() }
        #expect(error?.code == .apiError)
        #expect(error?.message.contains(refusal.messageFragment) == true)
        #expect(transport.requests.count == 1)
        #expect(try await iterator.next() == nil)

        let collectError = await caughtAPIError { _ = try await client.paginate(endpoint).collect() }
        #expect(collectError?.code == .apiError)
        #expect(transport.requests.count == 2)
    }

    @Test("A key the auth strategy puts in the query shows in no page event and no refused link's message")
    func queryCredentialsRedacted() async throws {
        let transport = pagedTransport([[1, 2], [3]]) { page, _ in
            page == 1 ? #"<https://evil.example.com/v1/items?api_key=SECRETKEY1&page=2>; rel="next""# : nil
        }
        let recorder = HookRecorder()
        let client = try makeClient(transport) {
            $0.auth = APIKeyAuth(name: "api_key", value: "SECRETKEY1", placement: .query)
            $0.hooks = recorder
        }
        var iterator = client.paginate(endpoint).pages.makeAsyncIterator()
        _ = try await iterator.next()
        let error = await caughtAPIError { _ = try await iterator.next() }
        #expect(error?.message.contains("another origin") == true)
        #expect(error?.message.contains("SECRETKEY1") == false)
        #expect(!recorder.events.pages.isEmpty)
        #expect(recorder.events.pages.allSatisfy { !$0.url.contains("SECRETKEY1") })
        #expect(transport.requests.first?.url.query?.contains("api_key=SECRETKEY1") == true)
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
        let error = await caughtAPIError { _ = try await client.paginate(endpoint).collect() }
        #expect(error?.code == .apiError)
        #expect(error?.message.contains("already fetched") == true)
        #expect(transport.requests.count == 2)

        let selfLink = pagedTransport([[1]]) { _, _ in #"</v1/items>; rel="next""# }
        let selfError = await caughtAPIError { _ = try await makeClient(selfLink).paginate(endpoint).collect() }
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
}
