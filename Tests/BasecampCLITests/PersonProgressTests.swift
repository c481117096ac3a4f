import APISandbox
import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Hummingbird
import Testing

/// `reports get-person-progress` and `api GetPersonProgress`: each page holds the person and a
/// page of their events, and the tool prints both.
@Suite("basecamp: a person's progress keeps the person beside the events")
struct PersonProgressTests {
    static let path = "basecamp/\(BasecampSandboxModule.defaultAccountID)/reports/users/progress/7.json"

    /// A page of progress: Ann, then one event in project 5 and one in project 6.
    static let page = #"""
        {"person":{"id":7,"name":"Ann Example"},
         "events":[{"id":1,"action":"completed","bucket":{"id":5,"name":"Five"}},
                   {"id":2,"action":"commented","bucket":{"id":6,"name":"Six"}}]}
        """#

    /// Runs `body` with the variables that point `basecamp` at a progress report whose every
    /// page links to `next`.
    @available(macOS 14, iOS 17, tvOS 17, *)
    func withProgress(next: String, _ body: ([String: String]) async throws -> Void) async throws {
        let module = CannedResponseModule(
            path: Self.path,
            headers: [.contentType: "application/json", .link: "<\(next)>; rel=\"next\"", .xTotalCount: "20"],
            body: Self.page
        )
        try await Sandbox.withRunning(configuration: SandboxConfiguration(modules: [module])) { sandbox in
            try await body(credentials(sandbox.baseURL.appending(path: "basecamp").absoluteString))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Two pages: the person once, both pages' events, and a note that more exist")
    func twoPages() async throws {
        try await withProgress(next: "?page=2") { variables in
            let json = await basecamp(
                ["--json", "--max-pages", "2", "reports", "get-person-progress", "7"],
                variables: variables
            )
            #expect(json.exitCode == 0, "\(json.stderr)")
            let value = try json.json(JSONValue.self)
            #expect(value["person"]?["name"] == "Ann Example")
            #expect(value["events"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [1, 2, 1, 2])
            #expect(
                json.stderr == "Showing 4 of 20, from the first 2 pages (--max-pages 2); raise --max-pages for more.\n"
            )

            let human = await basecamp(
                ["--max-pages", "2", "reports", "get-person-progress", "7"],
                variables: variables
            )
            #expect(human.exitCode == 0)
            #expect(human.stdout == "person  Ann Example (7)\n\nID  PROJECT\n 1  Five\n 2  Six\n 1  Five\n 2  Six\n")

            let raw = await basecamp(
                ["api", "GetPersonProgress", "--param", "personId=7", "--limit", "3"],
                variables: variables
            )
            #expect(raw.exitCode == 0)
            let object = try raw.json(JSONValue.self)
            #expect(object["person"]?["id"] == 7)
            #expect(object["events"]?.arrayValue?.count == 3)
            #expect(raw.stderr.contains("Showing 3"))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("--project keeps the person and only that project's events")
    func inProject() async throws {
        try await withProgress(next: "?page=2") { variables in
            let json = await basecamp(
                ["--json", "--max-pages", "2", "reports", "get-person-progress", "7", "--project", "5"],
                variables: variables
            )
            #expect(json.exitCode == 0, "\(json.stderr)")
            let value = try json.json(JSONValue.self)
            #expect(value["person"]?["name"] == "Ann Example")
            #expect(value["events"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [1, 1])

            // The project's events are counted against --limit; the server's total counts them all.
            let one = await basecamp(
                ["--json", "reports", "get-person-progress", "7", "--project", "5", "--limit", "1"],
                variables: variables
            )
            #expect(one.exitCode == 0, "\(one.stderr)")
            #expect(try one.json(JSONValue.self)["events"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [1])
            #expect(one.stderr == "Showing 1; use --page N or a larger --limit for more.\n")

            let none = await basecamp(
                ["--json", "--max-pages", "1", "reports", "get-person-progress", "7", "--project", "9"],
                variables: variables
            )
            #expect(none.exitCode == 0)
            #expect(try none.json(JSONValue.self)["events"] == .array([]))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A refused next link: the events fetched, then the refusal (exit 7), from the built tool")
    func refusedNextLink() async throws {
        try await withProgress(next: "https://elsewhere.example/progress.json?page=2") { variables in
            let result = try await runBuiltBasecamp(
                ["--json", "reports", "get-person-progress", "7"],
                variables: variables
            )
            #expect(result.exitCode == 7)
            let value = try result.json(JSONValue.self)
            #expect(value["person"]?["name"] == "Ann Example")
            #expect(value["events"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [1, 2])
            #expect(try result.errorReport().message.contains("another origin"))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("--format jsonl, csv and --fields print the events, a row each; --format json the object")
    func formats() async throws {
        try await withProgress(next: "?page=2") { variables in
            let command = ["--max-pages", "2", "reports", "get-person-progress", "7"]
            let lines = await basecamp(["--format", "jsonl"] + command, variables: variables)
            #expect(lines.exitCode == 0, "\(lines.stderr)")
            let rows = try lines.stdout.split(separator: "\n").map { try JSONValue(parsing: Data($0.utf8)) }
            #expect(rows.compactMap { $0["id"]?.intValue } == [1, 2, 1, 2])
            #expect(rows.allSatisfy { $0["person"] == nil && $0["action"] != nil })

            let csv = await basecamp(["--format", "csv", "--fields", "id,action"] + command, variables: variables)
            #expect(csv.exitCode == 0, "\(csv.stderr)")
            #expect(csv.stdout == "id,action\n1,completed\n2,commented\n1,completed\n2,commented\n")

            let selected = await basecamp(["--format", "json", "--fields", "id"] + command, variables: variables)
            #expect(selected.exitCode == 0, "\(selected.stderr)")
            let object = try selected.json(JSONValue.self)
            #expect(object["person"]?["name"] == "Ann Example")
            #expect(object["events"] == [["id": 1], ["id": 2], ["id": 1], ["id": 2]])

            let raw = await basecamp(
                ["--format", "jsonl", "--max-pages", "1", "api", "GetPersonProgress", "--param", "personId=7"],
                variables: variables
            )
            #expect(raw.exitCode == 0, "\(raw.stderr)")
            #expect(raw.stdout.split(separator: "\n").count == 2)
        }
    }

    @Test("The sandbox's progress report prints the person, then the events table, from the built tool")
    func sandbox() async throws {
        let human = try await runBuiltBasecamp(["--sandbox", "reports", "get-person-progress", "1049715913"])
        #expect(human.exitCode == 0, "\(human.stderr)")
        #expect(human.stdout.hasPrefix("person  Victor Cooper (1049715913)\n\n"))
        #expect(human.stdout.contains("ID  TITLE"))
        let raw = try await runBuiltBasecamp([
            "--sandbox", "api", "GetPersonProgress", "--param", "personId=1049715913",
        ])
        #expect(raw.exitCode == 0)
        #expect(try raw.json(JSONValue.self)["person"]?["id"] == 1_049_715_913)
    }
}
