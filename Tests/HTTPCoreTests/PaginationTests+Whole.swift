import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

/// A page that holds its list beside another member.
struct ReportPage: Codable, Sendable, Equatable {
    var person: String
    var events: [PageItem]
}

extension PaginationTests {
    @Test("Whole pages: each page's object is handed out as it came, by its Link, with the operation's metadata")
    func wholePages() async throws {
        let first: ScriptedTransport.Step = .json(
            ["person": "Ann", "events": [["id": 1], ["id": 2]]],
            headers: [.link: #"</v1/report?page=2>; rel="next""#, .xTotalCount: "3"]
        )
        let last: ScriptedTransport.Step = .json(["person": "Ann", "events": [["id": 3]]])
        let transport = ScriptedTransport([first, last, first, last])
        let hooks = HookRecorder()
        let client = try makeClient(transport) { $0.hooks = hooks }
        var report = Endpoint<ReportPage>(.get, "report")
        report.operation.pagination = PaginationMetadata(pageSize: 2, itemsKey: "events")

        var pages: [Page<ReportPage>] = []
        for try await page in client.paginateWhole(report).pages { pages.append(page) }

        #expect(
            pages.map(\.items) == [
                [ReportPage(person: "Ann", events: [PageItem(id: 1), PageItem(id: 2)])],
                [ReportPage(person: "Ann", events: [PageItem(id: 3)])],
            ]
        )
        #expect(pages.first?.totalCount == 3)
        #expect(transport.requests.prefix(2).map(\.url.query) == [nil, "page=2"])
        #expect(hooks.events.operationStarts.map(\.operation.pagination?.itemsKey) == ["events", "events"])
        #expect(hooks.events.pages.map(\.itemCount) == [1, 1])

        // The item is the page: a limit of one stops after the first, and `page` asks for one.
        let limited = try await client.paginateWhole(report, options: PaginationOptions(maxItems: 1)).collect()
        #expect(limited.map(\.person) == ["Ann"])
        #expect(limited.meta.truncated)
        let second = try await client.paginateWhole(report, options: PaginationOptions(page: 2)).collect()
        #expect(second.first?.events == [PageItem(id: 3)])
    }
}
