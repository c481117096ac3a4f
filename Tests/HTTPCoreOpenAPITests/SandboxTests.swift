import APISandbox
import BasecampSandbox
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreAsyncHTTPClient
import HTTPCoreOpenAPI
import HTTPCoreTesting
import OpenAPIRuntime
import Testing

@testable import BasecampOpenAPIExample

/// The HTTPCore transports the sandbox tests run on.
enum CoreTransport: String, CaseIterable, Sendable {
    case urlSession = "URLSession"
    case asyncHTTPClient = "AsyncHTTPClient"

    /// Runs `body` with this transport, shutting it down afterwards when it needs that.
    func with(_ body: (any HTTPTransport) async throws -> Void) async throws {
        switch self {
        case .urlSession: try await body(URLSessionTransport())
        case .asyncHTTPClient: try await withAsyncHTTPClientTransport { try await body($0) }
        }
    }
}

/// The generated client through HTTPCoreOpenAPI against the Basecamp sandbox on loopback, over
/// each of HTTPCore's transports.
@Suite("HTTPCoreTransport against the Basecamp sandbox")
struct SandboxTests {
    private static let account = String(BasecampSandboxSeed.accountID)

    /// Starts the sandbox with `faults`, and runs `body` with the generated client on an HTTPCore
    /// client over `kind` that has a cache, a quick retry policy and hooks that keep every event.
    @available(macOS 14, iOS 17, tvOS 17, *)
    private func withSandboxAPI(
        _ kind: CoreTransport,
        faults: FaultInjection = .none,
        _ body: (BasecampOpenAPIExample.Client, HTTPCoreTransport, HookRecorder) async throws -> Void
    ) async throws {
        let configuration = SandboxConfiguration(modules: [BasecampSandboxModule()], faults: faults)
        try await kind.with { httpTransport in
            try await Sandbox.withRunning(configuration: configuration) { sandbox in
                try await run(sandbox, httpTransport, body)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    private func run(
        _ sandbox: Sandbox,
        _ httpTransport: any HTTPTransport,
        _ body: (BasecampOpenAPIExample.Client, HTTPCoreTransport, HookRecorder) async throws -> Void
    ) async throws {
        let serverURL = sandbox.baseURL.appending(path: "basecamp")
        let events = HookRecorder()
        let core = try HTTPCore.Client(
            configuration: ClientConfiguration(
                baseURL: serverURL,
                userAgent: "HTTPCoreOpenAPITests (tests@example.com)",
                hooks: events,
                retry: RetryPolicy(baseDelay: .milliseconds(10)),
                auth: BearerTokenAuth(token: "sandbox-token"),
                cache: ResponseCache()
            ),
            transport: httpTransport
        )
        let transport = HTTPCoreTransport(client: core, configuration: .init(service: "basecamp"))
        let api = BasecampOpenAPIExample.Client.basecamp(serverURL: serverURL, transport: transport)
        try await body(api, transport, events)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A 503 from the sandbox is retried and the seeded projects come back", arguments: CoreTransport.allCases)
    func retriedServiceUnavailable(_ kind: CoreTransport) async throws {
        let faults = FaultInjection(sequence: [.serviceUnavailable], pathPrefixes: ["/basecamp/"])
        try await withSandboxAPI(kind, faults: faults) { api, _, events in
            let projects = try await api.listProjects(path: .init(accountId: Self.account)).ok.body.json
            #expect(projects.contains { $0.id == Int64(BasecampSandboxSeed.letoLaptopProjectID) })
            #expect(events.events.retries.map(\.operation.name) == ["ListProjects"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Fetching a project again is a 304 the cache answers", arguments: CoreTransport.allCases)
    func notModified(_ kind: CoreTransport) async throws {
        try await withSandboxAPI(kind) { api, _, events in
            let path = Operations.GetProject.Input.Path(
                accountId: Self.account,
                projectId: Int64(BasecampSandboxSeed.letoLaptopProjectID)
            )
            let first = try await api.getProject(path: path).ok.body.json
            let second = try await api.getProject(path: path).ok.body.json
            #expect(first == second)
            #expect(events.events.cache.filter { $0.kind == .revalidated }.count == 1)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The 120 seeded to-dos of a list walk in three pages", arguments: CoreTransport.allCases)
    func paginatedWalk(_ kind: CoreTransport) async throws {
        try await withSandboxAPI(kind) { api, transport, _ in
            let list = Int64(BasecampSandboxSeed.hardwareTodolistID)
            let pages = try await transport.pages {
                try await api.listTodos(path: .init(accountId: Self.account, todolistId: list)).ok.body.json
            }
            .collect()
            #expect(pages.map(\.count) == [50, 50, 20])
            #expect(Set(pages.joined().map(\.id)).count == 120)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "A 2 MiB upload of unknown length streams from a spool file to the sandbox",
        arguments: CoreTransport.allCases
    )
    func largeUpload(_ kind: CoreTransport) async throws {
        try await withSandboxAPI(kind) { api, _, _ in
            let output = try await api.createAttachment(
                path: .init(accountId: Self.account),
                query: .init(name: "big.bin"),
                body: .binary(Fixtures.singleUseBody(Array(repeating: 42, count: 2 << 20)))
            )
            #expect(try output.created.body.json.attachableSgid?.isEmpty == false)
        }
    }
}

/// `openapi-example`, run as a process.
@Suite("openapi-example")
struct ExampleProcessTests {
    @Test("It shows a retried 503, a refreshed token, a 304 from the cache and a paginated walk, and exits 0")
    func runsToTheEnd() async throws {
        let result = try await BuiltExecutable.run("openapi-example", timeLimit: .seconds(30))
        #expect(result.exitCode == 0, "stderr: \(result.stderr)")
        let lines = result.stdout
        #expect(lines.contains("[hook] ListProjects: 503, retrying"))
        #expect(lines.contains("[hook] GetProject: access token refreshed (rejected)"))
        #expect(lines.contains("[hook] GetProject: 304 Not Modified, answered from the cache"))
        #expect(lines.contains("listTodos: 120 to-dos in 3 pages"))
        #expect(!lines.contains("Bearer"))
    }
}
