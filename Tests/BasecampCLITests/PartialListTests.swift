import APISandbox
import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Hummingbird
import Testing

/// A projects list whose only page links to another origin, which the walk refuses.
@available(macOS 14, iOS 17, tvOS 17, *)
var crossOriginProjectsModule: CannedResponseModule {
    CannedResponseModule(
        path: "basecamp/\(BasecampSandboxModule.defaultAccountID)/projects.json",
        headers: [
            .contentType: "application/json",
            .link: #"<https://elsewhere.example/projects.json?page=2>; rel="next""#,
        ],
        body: #"[{"id":1,"name":"First project"},{"id":2,"name":"Second project"}]"#
    )
}

/// Runs `body` with the variables that point `basecamp` at ``crossOriginProjectsModule``.
@available(macOS 14, iOS 17, tvOS 17, *)
func withCrossOriginProjects(_ body: ([String: String]) async throws -> Void) async throws {
    try await Sandbox.withRunning(configuration: SandboxConfiguration(modules: [crossOriginProjectsModule])) {
        sandbox in
        try await body(credentials(sandbox.baseURL.appending(path: "basecamp").absoluteString))
    }
}

/// `basecamp … list` and `basecamp api` when the walk stops early: the items fetched are printed,
/// then the error with its exit code.
@Suite("basecamp: a list that stops early prints what it fetched, then fails")
struct PartialListTests {
    static let todolist = "1069479338"

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A refused next link: both projects printed, then the refusal (exit 7)")
    func refusedNextLink() async throws {
        try await withCrossOriginProjects { (variables: [String: String]) async throws in
            let human = await basecamp(["projects", "list"], variables: variables)
            #expect(human.exitCode == 7)
            #expect(human.stdout.contains("First project") && human.stdout.contains("Second project"))
            #expect(human.stderr.hasPrefix("The list stopped early: the items above are from the first 1 page.\n"))
            #expect(human.stderr.contains("points to another origin"))

            let json = await basecamp(["--json", "projects", "list"], variables: variables)
            #expect(json.exitCode == 7)
            #expect(try json.json([JSONValue].self).count == 2)
            #expect(try json.errorReport().code == "api_error")

            let raw = await basecamp(["api", "ListProjects"], variables: variables)
            #expect(raw.exitCode == 7)
            #expect(
                try raw.json([JSONValue].self).map { $0["name"]?.stringValue } == ["First project", "Second project"]
            )
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A page that fails after the first: the first page's items, then the failure (exit 7)")
    func failedPage() async throws {
        let route = "/basecamp/\(BasecampSandboxModule.defaultAccountID)/todolists/\(Self.todolist)/todos.json"
        let faults = FaultInjection(sequence: [nil, .serviceUnavailable], pathPrefixes: [route])
        try await withBasecampSandbox(faults: faults) { _, baseURL in
            let result = await basecamp(
                ["--no-retry", "--json", "todos", "list", "--todolist", Self.todolist],
                variables: credentials(baseURL)
            )
            #expect(result.exitCode == 7)
            #expect(try result.json([JSONValue].self).count == 50)
            let report = try result.errorReport()
            #expect(report.httpStatus == 503)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The built tool prints the items before failing, as a script sees it")
    func process() async throws {
        try await withCrossOriginProjects { (variables: [String: String]) async throws in
            let result = try await runBuiltBasecamp(["--json", "projects", "list"], variables: variables)
            #expect(result.exitCode == 7)
            #expect(try result.json([JSONValue].self).count == 2)
            #expect(try result.errorReport().message.contains("another origin"))
        }
    }
}
