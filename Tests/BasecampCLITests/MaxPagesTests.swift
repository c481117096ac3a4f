import APISandbox
import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Testing

/// `--max-pages N`: a list stops after N pages, says it was cut short, and fetches no page beyond.
@Suite("--max-pages")
struct MaxPagesTests {
    static let hardware = String(BasecampSandboxSeed.hardwareTodolistID)
    static let todos = "/basecamp/\(BasecampSandboxModule.defaultAccountID)/todolists/\(hardware)/todos.json"

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A list command stops after N pages, fetches no more, and says so; without it every page is walked")
    func listCommand() async throws {
        try await withBasecampSandbox { sandbox, baseURL in
            let one = await basecamp(
                ["todos", "list", "--todolist", Self.hardware, "--max-pages", "1"],
                variables: credentials(baseURL)
            )
            #expect(one.exitCode == 0, "\(one.stderr)")
            #expect(one.stdout.split(separator: "\n").count == 51)
            #expect(
                one.stderr == "Showing 50 of 120, from the first page (--max-pages 1); raise --max-pages for more.\n"
            )
            #expect(sandbox.counters().requestsByPath[Self.todos] == 1)

            sandbox.reset()
            let two = await basecamp(
                ["--json", "todos", "list", "--todolist", Self.hardware, "--max-pages", "2"],
                variables: credentials(baseURL)
            )
            let decoded = try two.json([TodoJSON].self)
            #expect(decoded.count == 100)
            #expect(two.stderr.contains("Showing 100 of 120, from the first 2 pages (--max-pages 2)"))
            #expect(sandbox.counters().requestsByPath[Self.todos] == 2)

            sandbox.reset()
            let enough = await basecamp(
                ["todos", "list", "--todolist", Self.hardware, "--max-pages", "3"],
                variables: credentials(baseURL)
            )
            #expect(enough.stdout.split(separator: "\n").count == 121)
            #expect(enough.stderr.isEmpty)
        }
    }

    @Test("api on a paginated operation stops too, and says so on stderr beside its JSON")
    func api() async throws {
        let result = await basecamp([
            "--sandbox", "--max-pages", "2", "api", "ListTodos", "--param", "todolistId=\(Self.hardware)",
        ])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let items = try result.json([JSONValue].self)
        #expect(items.count == 100)
        #expect(result.stderr.contains("Showing 100 of 120, from the first 2 pages (--max-pages 2)"))
    }

    @Test(
        "Less than 1, or on something that is not a list, is a usage error",
        arguments: [
            ["--max-pages", "0", "projects", "list"],
            ["projects", "get", "2085958504", "--max-pages", "1"],
            ["api", "GetProject", "--param", "projectId=2085958504", "--max-pages", "1"],
        ]
    )
    func refused(_ arguments: [String]) async {
        let result = await basecamp(["--sandbox"] + arguments)
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("--max-pages"))
    }
}
