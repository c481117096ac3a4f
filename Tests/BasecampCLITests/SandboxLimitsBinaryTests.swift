import APISandbox
import Basecamp
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@testable import BasecampSandbox

/// The sandbox's rate limit and its state file shared by several processes, as the built
/// `basecamp` meets them.
@Suite("basecamp against the sandbox's rate limit and a shared state file")
struct SandboxLimitsBinaryTests {
    static let hardware = 1_069_479_338

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A burst of 60: 50 answered, the rest 429 with Retry-After; without retries the tool exits 5")
    func burst() async throws {
        var module = BasecampSandboxModule()
        #expect(module.rateLimiter.limit == .basecamp, "on by default")
        // The window moves on this clock only, so a slow machine still sends all 60 within it.
        module.timeSource = TestClock()
        try await withBasecampSandbox(module: module) { sandbox, base in
            let client = try BasecampClient(
                accessToken: "test-token-1234",
                userAgent: "SandboxLimitsBinaryTests (tests@example.com)",
                config: BasecampConfig(baseURL: URL(string: base), enableRetry: false),
                transport: URLSessionTransport()
            )
            let account = try client.forAccount(BasecampSandboxModule.defaultAccountID)
            var refusals: [APIError] = []
            for _ in 0..<60 {
                do {
                    _ = try await account.projects.get(projectID: Int64(BasecampSandboxSeed.letoLaptopProjectID))
                } catch let error as APIError {
                    refusals.append(error)
                }
            }
            #expect(refusals.count == 10)
            #expect(refusals.allSatisfy { $0.code == .rateLimit && $0.httpStatus == 429 })
            #expect(refusals.allSatisfy { ($0.details.retryAfter ?? .zero) > .zero })

            let tool = try await runBuiltBasecamp(
                ["--no-retry", "--json", "projects", "list"],
                variables: credentials(base)
            )
            #expect(tool.exitCode == 5, "\(tool.stderr)")
            #expect(try tool.errorReport().message == "Rate limit exceeded: 50 requests per 10 seconds.")
            #expect(sandbox.counters().totalRequests == 61)
        }
    }

    @Test("A walk of 2,500 to-dos under a tight limit waits as told and prints every one once")
    func walkUnderTheLimit() async throws {
        let folder = try ScratchFolder("basecamp-walk")
        defer { folder.remove() }
        // Written straight into a state file: 2,500 creates through the API would take longer
        // than the walk under test.
        var data = AccountData.seeded
        for index in 0..<2500 {
            data.add(.todo, ["content": .string("Item \(index)")], in: Self.hardware, at: "2026-02-01T09:00:00.000Z")
        }
        let file = folder.file("state.json")
        try SandboxStateFile(file).save(data)
        let open = Set(
            data.records.filter {
                $0.kind == .todo && $0.parentID == Self.hardware && $0.status == "active"
                    && $0.fields["completed"]?.boolValue != true
            }
            .map(\.id)
        )
        #expect(open.count >= 2500)
        // The tool's own `--sandbox` serves the walk, in its process: a sandbox in this one would
        // answer only as fast as a full test run leaves this process's threads free.
        // Only the ids are printed: formatting 2,500 whole records would cost more than the walk.
        let walk = try await runBuiltBasecamp(
            ["--sandbox", "todos", "list", "--todolist", String(Self.hardware), "--format", "csv", "--fields", "id"],
            variables: ["BASECAMP_SANDBOX_STATE": file.path, "BASECAMP_SANDBOX_RATE_LIMIT": "25/1"]
        )
        #expect(walk.exitCode == 0, "\(walk.stderr)")
        let lines = walk.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "id")
        let ids = lines.dropFirst().compactMap { Int($0) }
        #expect(ids.count == open.count)
        #expect(Set(ids) == open)
        // Whether a page was refused depends on how fast this machine walks (25 a second are);
        // the burst test proves refusals, this one that a walk loses nothing to them.
    }

    @Test("Six processes creating a to-do on one state file: six kept, six different ids")
    func parallelWriters() async throws {
        let folder = try ScratchFolder("basecamp-writers")
        defer { folder.remove() }
        let state = ["BASECAMP_SANDBOX_STATE": folder.path("state.json")]
        let results = try await withThrowingTaskGroup(of: CommandResult.self) { group in
            for index in 0..<6 {
                group.addTask {
                    try await runBuiltBasecamp(
                        [
                            "--sandbox", "--json", "todos", "create", "--todolist", String(Self.hardware), "--content",
                            "Writer \(index)",
                        ],
                        variables: state
                    )
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.exitCode == 0 }, "\(results.map(\.stderr))")
        let created = try results.map { try $0.json(TodoJSON.self).id }
        #expect(Set(created).count == 6)

        let listed = try await runBuiltBasecamp(
            ["--sandbox", "--json", "todos", "list", "--todolist", String(Self.hardware)],
            variables: state
        )
        let kept = try listed.json([TodoJSON].self)
        #expect(Set(kept.filter { $0.content.hasPrefix("Writer ") }.map(\.id)) == Set(created))
        #expect(Set(kept.map(\.id)).count == kept.count)
    }
}
