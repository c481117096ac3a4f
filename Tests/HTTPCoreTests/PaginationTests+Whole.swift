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
        let transport = ScriptedTransport([
            .json(
                ["person": "Ann", "events": [["id": 1], ["id": 2]]],
                headers: [.link: #"</v1/report?page=2>; rel="next""#, .xTotalCount: "3"]
            ),
            .json(["person": "Ann", "events": [["id": 3]]]),
        ])
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
        #expect(transport.requests.map(\.url.query) == [nil, "page=2"])
        #expect(hooks.events.operationStarts.map(\.operation.pagination?.itemsKey) == ["events", "events"])
        #expect(hooks.events.pages.count == 2)
    }
}
