import Foundation
import HTTPCore
import HTTPCoreOpenAPI
import HTTPCoreTesting
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import BasecampOpenAPIExample

/// Link-header pages of a generated list operation, and the opt-in mapping of error statuses to
/// HTTPCore's structured error.
@Suite("HTTPCoreTransport: pages and errors")
struct PaginationAndErrorTests {
    private static func listPages(_ harness: Harness, maxPages: Int = 1000) -> LinkPages<[Components.Schemas.Project]> {
        let api = harness.api
        return harness.transport.pages(maxPages: maxPages) {
            try await api.listProjects(path: .init(accountId: Fixtures.account)).ok.body.json
        }
    }

    /// The project ids of each page a walk handed out before it failed, and its error.
    private static func walkUntilRefused(_ harness: Harness) async -> ([[Int64]], APIError?) {
        var seen: [[Int64]] = []
        let error = await #expect(throws: APIError.self) {
            for try await page in listPages(harness) { seen.append(page.map(\.id)) }
        }
        return (seen, error)
    }

    @Test("Pages follow each answer's next link until one has none, each a full call of the operation")
    func walk() async throws {
        let harness = try Harness([
            .json(
                [Fixtures.project(1), Fixtures.project(2)],
                headers: Fixtures.next(Fixtures.projectsURL + "?page=2")
            ),
            .status(503),
            .json([Fixtures.project(3)], headers: Fixtures.next(Fixtures.projectsURL + "?page=3")),
            .json([Fixtures.project(4)]),
        ])
        let pages = try await Self.listPages(harness).collect()
        #expect(pages.map { $0.map(\.id) } == [[1, 2], [3], [4]])
        let urls = harness.scripted.requests.map(\.url.absoluteString)
        #expect(urls.first == Fixtures.projectsURL)
        #expect(Array(urls.dropFirst()) == ["?page=2", "?page=2", "?page=3"].map { Fixtures.projectsURL + $0 })
        #expect(harness.events.events.retries.map(\.operation.name) == ["ListProjects"])
        #expect(harness.events.events.operationEnds.count == 3)
    }

    @Test("Other calls in a page's task go where they were meant to, and do not steer the walk")
    func otherCallsInAPage() async throws {
        let harness = try Harness([
            .json([Fixtures.project(1)], headers: Fixtures.next(Fixtures.projectsURL + "?page=2")),
            .json(Fixtures.project(8)),
            .json([Fixtures.project(2)]),
            .json(Fixtures.project(8)),
        ])
        // Another API's client, with credentials of its own, called from inside the walk.
        let other = try Harness([.json(Fixtures.project(9)), .json(Fixtures.project(9))])
        let (api, otherAPI) = (harness.api, other.api)
        let pages = try await harness.transport.pages {
            let page = try await api.listProjects(path: .init(accountId: Fixtures.account)).ok.body.json
            _ = try await otherAPI.getProject(path: Fixtures.projectPath).ok.body.json
            _ = try await api.getProject(path: Fixtures.projectPath).ok.body.json
            return page
        }.collect()
        #expect(pages.map { $0.map(\.id) } == [[1], [2]])
        let walked = harness.scripted.requests.map(\.url.path)
        #expect(walked.filter { $0.hasSuffix("projects.json") }.count == 2)
        #expect(harness.scripted.requests.filter { $0.url.query == "page=2" }.count == 1)
        #expect(other.scripted.requests.allSatisfy { $0.url.query == nil && !$0.url.path.hasSuffix("projects.json") })
    }

    @Test("A next link to another origin ends the walk after the page that named it; nothing is sent there")
    func otherOriginRefused() async throws {
        let harness = try Harness([
            .json([Fixtures.project(1)], headers: Fixtures.next("https://evil.example.com/999/projects.json?page=2"))
        ])
        let (seen, error) = await Self.walkUntilRefused(harness)
        #expect(seen == [[1]])
        #expect(error?.code == .apiError)
        #expect(error?.message.contains("another origin") == true)
        #expect(harness.scripted.requests.count == 1)
    }

    @Test("A next link back to a page already fetched ends the walk instead of looping")
    func loopRefused() async throws {
        let harness = try Harness([
            .json([Fixtures.project(1)], headers: Fixtures.next(Fixtures.projectsURL + "?page=2")),
            .json([Fixtures.project(2)], headers: Fixtures.next(Fixtures.projectsURL)),
        ])
        let (seen, error) = await Self.walkUntilRefused(harness)
        #expect(seen == [[1], [2]])
        #expect(error?.message.contains("already fetched") == true)
        #expect(harness.scripted.requests.count == 2)
    }

    @Test("maxPages caps the walk")
    func maxPages() async throws {
        let harness = try Harness([
            .json([Fixtures.project(1)], headers: Fixtures.next(Fixtures.projectsURL + "?page=2")),
            .json([Fixtures.project(2)], headers: Fixtures.next(Fixtures.projectsURL + "?page=3")),
        ])
        let pages = try await Self.listPages(harness, maxPages: 1).collect()
        #expect(pages.count == 1)
        #expect(harness.scripted.requests.count == 1)
    }

    @Test("By default an error status reaches the generated client as its documented case")
    func errorStatusReturned() async throws {
        let harness = try Harness([.json(["error": "Not found"], status: 404)])
        let output = try await harness.api.getProject(path: Fixtures.projectPath)
        guard case .notFound = output else {
            Issue.record("expected notFound, got \(output)")
            return
        }
    }

    @Test("With mapsErrorStatuses, an error status throws HTTPCore's error with its exit code, and the hooks see it")
    func errorStatusMapped() async throws {
        let harness = try Harness(
            [.json(["error": "Not found"], status: 404, headers: [.xRequestID: "req-42"])],
            options: .init(mapsErrorStatuses: true)
        )
        let error = await #expect(throws: (any Error).self) {
            _ = try await harness.api.getProject(path: Fixtures.projectPath)
        }
        let apiError = try #require(APIError(openAPI: error ?? CancellationError()))
        #expect(apiError.code == .notFound)
        #expect(apiError.exitCode == 2)
        #expect(apiError.requestID == "req-42")
        #expect(harness.events.events.operationEnds.first?.error?.code == .notFound)
    }

    @Test("A 503 that outlasts the retries is one structured error after every attempt")
    func retriesExhausted() async throws {
        let harness = try Harness(
            [.status(503), .status(503), .status(503)],
            options: .init(mapsErrorStatuses: true)
        )
        let error = await #expect(throws: (any Error).self) {
            _ = try await harness.api.getProject(path: Fixtures.projectPath)
        }
        #expect(APIError(openAPI: error ?? CancellationError())?.httpStatus == 503)
        #expect(harness.scripted.requests.count == 3)
    }
}
