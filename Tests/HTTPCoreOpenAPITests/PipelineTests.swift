import Foundation
import HTTPCore
import HTTPCoreOpenAPI
import HTTPCoreTesting
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import BasecampOpenAPIExample

/// The generated client's calls through HTTPCore's pipeline: retry, token refresh, the cache and
/// the hooks, on the scripted transport with the test clock.
@Suite("HTTPCoreTransport: the pipeline under a generated client")
struct PipelineTests {
    @Test("A 503 is retried after a backoff wait, under the operation id, and the client gets the 200")
    func retriedServiceUnavailable() async throws {
        let harness = try Harness([.status(503), .json(Fixtures.project(1))])
        let project = try await harness.api.getProject(path: Fixtures.projectPath).ok.body.json
        #expect(project.name == "Leto")
        #expect(harness.scripted.requests.count == 2)
        #expect(harness.clock.sleeps.count == 1)
        #expect((harness.clock.sleeps.first ?? .zero) >= .seconds(1))
        #expect(harness.events.events.retries.map(\.operation.name) == ["GetProject"])
    }

    @Test("Retry-After on a 429 is honoured")
    func retryAfter() async throws {
        let harness = try Harness([.status(429, headers: [.retryAfter: "7"]), .json(Fixtures.project(1))])
        _ = try await harness.api.getProject(path: Fixtures.projectPath).ok.body.json
        #expect(harness.clock.sleeps == [.seconds(7)])
    }

    @Test("A rejected token is refreshed once and the call replayed with the new one")
    func refreshedToken() async throws {
        let harness = try Harness(
            handler: Fixtures.tokenServer(answer: Fixtures.project(1).encoded()),
            configure: { $0.auth = Fixtures.refreshingAuth() }
        )
        let value = try await harness.api.getProject(path: Fixtures.projectPath).ok.body.json
        #expect(value.id == 1)
        let sent = harness.scripted.requests.map { "\($0.request.method.rawValue) \($0.url.lastPathComponent)" }
        #expect(sent == ["GET 1", "POST token", "GET 1"])
        #expect(harness.scripted.requests.last?.header("Authorization") == "Bearer new-token")
        let refreshes = harness.events.events.auth.filter { $0.kind == .refreshed }
        #expect(refreshes.map(\.operation.name) == ["GetProject"])
    }

    @Test("A 304 to the cache's conditional request is answered from the cache")
    func notModifiedFromCache() async throws {
        let etag: HTTPFields = [.eTag: "\"v1\""]
        let harness = try Harness(
            [.json(Fixtures.project(1), headers: etag), .status(304, headers: etag)],
            configure: { $0.cache = ResponseCache() }
        )
        _ = try await harness.api.getProject(path: Fixtures.projectPath).ok.body.json
        let again = try await harness.api.getProject(path: Fixtures.projectPath).ok.body.json
        #expect(again.name == "Leto")
        #expect(harness.scripted.requests.last?.header("If-None-Match") == "\"v1\"")
        let revalidated = harness.events.events.cache.filter { $0.kind == .revalidated }
        #expect(revalidated.map(\.operation.name) == ["GetProject"])
    }

    @Test("Hooks name each call by its operation id and the configured service")
    func operationNames() async throws {
        let harness = try Harness([.json(Fixtures.project(1)), .json([Fixtures.project(1)])])
        _ = try await harness.api.getProject(path: Fixtures.projectPath)
        _ = try await harness.api.listProjects(path: .init(accountId: Fixtures.account))
        let ends = harness.events.events.operationEnds
        #expect(ends.map(\.operation.name) == ["GetProject", "ListProjects"])
        #expect(ends.allSatisfy { $0.operation.service == "basecamp" && $0.status == 200 })
        #expect(harness.events.events.operationStarts.first?.url == "https://api.example.com/basecamp/999/projects/1")
    }

    @Test("A POST is not retried on a 503 unless its operation is marked safe to repeat")
    func idempotencyByOperation() async throws {
        let todo = Operations.CreateTodo.Input(
            path: .init(accountId: Fixtures.account, todolistId: 5),
            body: .json(.init(content: "Ship it"))
        )
        let plain = try Harness([.status(503), .status(201)])
        let first = try await plain.api.createTodo(todo)
        #expect(plain.scripted.requests.count == 1)
        guard case .undocumented(statusCode: 503, _) = first else {
            Issue.record("expected the 503 back, got \(first)")
            return
        }

        let marked = try Harness(
            [.status(503), .status(418)],
            options: .init(idempotency: ["CreateTodo": true])
        )
        _ = try await marked.api.createTodo(todo)
        #expect(marked.scripted.requests.count == 2)
        let bodies = marked.scripted.requests.map(\.bodyText)
        #expect(bodies[0]?.contains("Ship it") == true)
        #expect(bodies[0] == bodies[1])
    }

    @Test("A server URL on another origin is refused before anything is sent")
    func otherOrigin() async throws {
        let harness = try Harness(
            [.json(Fixtures.project(1))],
            serverURL: URL(string: "https://ops:pa55word@elsewhere.example.com")
        )
        let error = await #expect(throws: (any Error).self) {
            _ = try await harness.api.getProject(path: Fixtures.projectPath)
        }
        let refused = APIError(openAPI: error ?? CancellationError())
        #expect(refused?.code == .usage)
        #expect(refused?.message.contains("elsewhere.example.com") == true)
        #expect(refused?.message.contains("pa55word") == false, "the URL's password is not repeated")
        #expect(harness.scripted.requests.isEmpty)
    }
}
