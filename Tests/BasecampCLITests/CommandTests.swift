import APISandbox
import BasecampSandbox
import CLISupport
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@testable import BasecampCLI

@Suite("basecamp commands, in-process")
struct CommandTests {
    static let leto = String(BasecampSandboxSeed.letoLaptopProjectID)
    static let hardware = String(BasecampSandboxSeed.hardwareTodolistID)
    static let checklist = String(BasecampSandboxSeed.launchChecklistTodolistID)

    // MARK: Success

    @Test("projects list: the active projects as a table")
    func projectsList() async {
        let result = await basecamp(["--sandbox", "projects", "list"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout == """
                        ID  NAME                        UPDATED
                2085958504  The Leto Laptop             Thu 8 Jan 2026 09:15
                2085958505  Marketing Website Relaunch  Wed 14 Jan 2026 09:15
                2085958506  Hiring: Backend Engineer    Sun 18 Jan 2026 09:15

                """
        )
    }

    @Test("--json prints the SDK's field names, before or after the subcommand")
    func json() async throws {
        struct Project: Decodable, Equatable {
            var id: Int
            var name: String
            var appURL: String
            var createdAt: String
        }
        let before = await basecamp(["--json", "--sandbox", "projects", "list"])
        let after = await basecamp(["projects", "list", "--sandbox", "--json"])
        #expect(before.exitCode == 0)
        let projects = try before.json([Project].self)
        #expect(try after.json([Project].self) == projects)
        #expect(projects.map(\.name) == ["The Leto Laptop", "Marketing Website Relaunch", "Hiring: Backend Engineer"])
        #expect(projects.first?.appURL == "https://3.basecamp.com/195539477/projects/2085958504")
        #expect(projects.first?.createdAt == "2026-01-08T09:15:00.000Z")
        #expect(!before.stdout.contains("app_url"))
    }

    @Test("A single record prints as fields, with times in the user's zone")
    func record() async throws {
        let id = String(BasecampSandboxSeed.fluxCapacitorTodoID)
        let result = await basecamp(["--sandbox", "todos", "get", id]) {
            $0.timeZone = TimeZone(identifier: "America/Chicago") ?? .gmt
        }
        #expect(result.exitCode == 0)
        var fields: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            guard let gap = line.range(of: "  ") else { continue }
            fields[String(line[..<gap.lowerBound])] = line[gap.upperBound...].trimmingCharacters(in: .whitespaces)
        }
        #expect(result.stdout.hasPrefix("id "))
        #expect(fields["id"] == "1069479395")
        #expect(fields["title"] == "Program the flux capacitor")
        #expect(fields["description"] == "Use the 1.21 gigawatt setting.")
        #expect(fields["assignees"] == "Annie Bryan (1049715914)")
        #expect(fields["parent"] == "Hardware (1069479338)")
        #expect(fields["created at"] == "Fri 9 Jan 2026 02:15")
        #expect(!result.stdout.contains("http"))
    }

    @Test("todos list walks every page: 120 to-dos in three pages")
    func pagination() async throws {
        let human = await basecamp(["--sandbox", "todos", "list", "--project", Self.leto, "--todolist", Self.hardware])
        #expect(human.exitCode == 0)
        #expect(human.stdout.split(separator: "\n").count == 121)
        #expect(human.stdout.hasPrefix("        ID  TITLE  "))

        let json = await basecamp(["--sandbox", "--json", "todos", "list", "--todolist", Self.hardware])
        let todos = try json.json([TodoJSON].self)
        #expect(todos.count == 120)
        #expect(Set(todos.map(\.id)).count == 120)
        #expect(todos.first?.title == "Program the flux capacitor")

        let limited = await basecamp(["--sandbox", "todos", "list", "--todolist", Self.hardware, "--limit", "60"])
        #expect(limited.stdout.split(separator: "\n").count == 61)
        #expect(limited.stderr == "Showing 60 of 120; use --page N or a larger --limit for more.\n")

        let third = await basecamp(["--sandbox", "--json", "todos", "list", "--todolist", Self.hardware, "--page", "3"])
        #expect(try third.json([TodoJSON].self).count == 20)
    }

    @Test("Progress is drawn on stderr for a long walk only when stderr is a terminal")
    func progress() async {
        let arguments = ["--sandbox", "todos", "list", "--todolist", Self.hardware]
        let terminal = await basecamp(arguments) { $0.standardErrorIsTerminal = true }
        #expect(terminal.exitCode == 0)
        #expect(terminal.stderr.contains("Fetching ListTodos: page 3, 120 of 120 items…"))
        let piped = await basecamp(arguments)
        #expect(piped.stderr.isEmpty)
    }

    @Test("--project leaves out records elsewhere; a list wholly elsewhere is not found")
    func projectScope() async throws {
        let other = String(BasecampSandboxSeed.websiteProjectID)
        let result = await basecamp([
            "--sandbox", "--json", "todos", "list", "--project", other, "--todolist", Self.checklist,
        ])
        #expect(result.exitCode == 2)
        #expect(try result.errorReport().code == "not_found")
    }

    @Test("--project applies before --limit: the project's first items, however many others come first")
    func projectBeforeLimit() async throws {
        // The seed lists 66 of the first project's to-dos before any of the second's 21.
        let second = "2085958505"
        let list = ["--sandbox", "--json", "recordings", "list", "--type", "Todo", "--project", second]
        let three = await basecamp(list + ["--limit", "3"])
        #expect(three.exitCode == 0)
        let items = try JSONDecoder().decode([JSONValue].self, from: Data(three.stdout.utf8))
        #expect(items.count == 3)
        #expect(items.allSatisfy { $0["bucket"]?["id"]?.intValue == Int(second) })
        // The last project's five: all of them, and no note that more exist.
        let five = await basecamp(
            ["--sandbox", "recordings", "list", "--type", "Todo", "--project", "2085958507", "--limit", "5"]
        )
        #expect(five.exitCode == 0)
        #expect(!five.stderr.contains("Showing"))
        // A walk cut short before the project's items is an empty list that says so, not a 404.
        let cut = await basecamp(
            ["--sandbox", "recordings", "list", "--type", "Todo", "--project", second, "--max-pages", "1"]
        )
        #expect(cut.exitCode == 0)
        #expect(cut.stderr.contains("raise --max-pages for more"))
    }

    @Test("Argument errors of api and download are usage (64) before a session or a request")
    func lateArgumentErrors() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let api = await basecamp(
            ["api", "GetProject", "--param", "projectId=1", "--limit", "5"],
            variables: folder.variables
        )
        #expect(api.exitCode == 64, "\(api.stderr)")
        #expect(api.stderr.contains("--limit and --page do not apply"))
        let download = await basecamp(["--sandbox", "download", "0"])
        #expect(download.exitCode == 64, "\(download.stderr)")
        #expect(download.stderr.contains("whole numbers above 0"))
    }

    @Test("todos create, then todos list shows it, across runs sharing BASECAMP_SANDBOX_STATE")
    func createThenList() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "basecamp-cli-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let state = ["BASECAMP_SANDBOX_STATE": file.path]
        let created = await basecamp(
            [
                "--sandbox", "--json", "todos", "create", "--todolist", Self.checklist, "--content", "Order the cake",
                "--due-on", "2026-03-01", "--assignee-ids", "1049715917",
            ],
            variables: state
        )
        #expect(created.exitCode == 0, "\(created.stderr)")
        let todo = try created.json(TodoJSON.self)
        #expect(todo.content == "Order the cake")
        #expect(todo.dueOn == "2026-03-01")

        let listed = await basecamp(["--sandbox", "todos", "list", "--todolist", Self.checklist], variables: state)
        #expect(listed.stdout.contains("\(todo.id)  Order the cake"))

        let completed = await basecamp(["--sandbox", "todos", "complete", String(todo.id)], variables: state)
        #expect(completed.stdout == "Complete todo: done (HTTP 204).\n")
        let open = await basecamp(["--sandbox", "todos", "list", "--todolist", Self.checklist], variables: state)
        #expect(!open.stdout.contains("Order the cake"))

        // Without the state file every run starts from the seed.
        let fresh = await basecamp(["--sandbox", "todos", "list", "--todolist", Self.checklist])
        #expect(!fresh.stdout.contains("Order the cake"))
    }

    @Test("--body supplies members; options override them")
    func bodyOption() async throws {
        let result = await basecamp([
            "--sandbox", "--json", "todos", "create", "--todolist", Self.checklist,
            "--body", #"{"content": "From the body", "description": "<div>kept</div>"}"#, "--content",
            "From the option",
        ])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let todo = try result.json(TodoJSON.self)
        #expect(todo.content == "From the option")
    }

    @Test("api GetProject prints the API's JSON")
    func apiGetProject() async throws {
        let result = await basecamp(["--sandbox", "api", "GetProject", "--param", "projectId=\(Self.leto)"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let project = try result.json(JSONValue.self)
        #expect(project["name"] == "The Leto Laptop")
        #expect(project["app_url"] == "https://3.basecamp.com/195539477/projects/2085958504")
    }

    @Test("api collects every page of a list, or --limit of it")
    func apiList() async throws {
        let all = await basecamp(["--sandbox", "api", "ListTodos", "--param", "todolistId=\(Self.hardware)"])
        #expect(try all.json([JSONValue].self).count == 120)
        let five = await basecamp([
            "--sandbox", "api", "ListTodos", "--param", "todolistId=\(Self.hardware)", "--limit", "5",
        ])
        #expect(try five.json([JSONValue].self).count == 5)
        let completed = await basecamp([
            "--sandbox", "api", "ListTodos", "--param", "todolistId=\(Self.checklist)", "--param", "completed=true",
        ])
        #expect(try completed.json([JSONValue].self).count == 3)
    }

    @Test("api sends --body from a file, and answers without a body print nothing")
    func apiBodyFile() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "basecamp-body-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"content": "From a file"}"#.utf8).write(to: file)
        let created = await basecamp([
            "--sandbox", "api", "CreateTodo", "--param", "todolistId=\(Self.checklist)", "--body", "@\(file.path)",
        ])
        #expect(created.exitCode == 0, "\(created.stderr)")
        #expect(try created.json(JSONValue.self)["content"] == "From a file")
        let id = String(BasecampSandboxSeed.fluxCapacitorTodoID)
        let completed = await basecamp(["--sandbox", "api", "CompleteTodo", "--param", "todoId=\(id)"])
        #expect(completed.exitCode == 0)
        #expect(completed.stdout.isEmpty)
    }

    @Test("Operations answered from Spec examples work too")
    func exampleOperation() async throws {
        let result = await basecamp(["--sandbox", "--json", "calendars", "get", "42"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try result.json(JSONValue.self)["id"] == 42)
        let operations = await basecamp(["operations", "todos"])
        #expect(operations.stdout.split(separator: "\n").count == 9)
        #expect(
            operations.stdout.contains(
                "CompleteTodo       basecamp todos complete           POST    /{accountId}/todos/"
            )
        )
    }

    @Test("--help shows the Spec's summary, method and path")
    func help() async {
        let result = await basecamp(["todos", "list", "--help"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: List todos.\n"))
        #expect(result.stdout.contains("GET /{accountId}/todolists/{todolistId}/todos.json"))
        #expect(result.stdout.contains("--todolist <id>"))
        let root = await basecamp(["--help"])
        #expect(root.stdout.contains("BASECAMP_TOKEN"))
        #expect(root.stdout.contains("todolists"))
    }

    // MARK: Errors and exit codes

    @Test("404 exits 2, with --json as one object on stderr")
    func notFound() async throws {
        let human = await basecamp(["--sandbox", "todos", "get", "1"])
        #expect(human.exitCode == 2)
        #expect(human.stdout.isEmpty)
        #expect(human.stderr.hasPrefix("error: To-do 1 not found. (HTTP 404, request basecamp-"))
        let json = await basecamp(["--sandbox", "--json", "todos", "get", "1"])
        #expect(json.exitCode == 2)
        let report = try json.errorReport()
        #expect(report.code == "not_found")
        #expect(report.httpStatus == 404)
        #expect(report.requestId?.hasPrefix("basecamp-") == true)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("401 exits 3: a token the server rejects, or none at all")
    func unauthorized() async throws {
        let module = BasecampSandboxModule(rejectedTokens: ["revoked-token-5678"])
        try await withBasecampSandbox(module: module) { _, baseURL in
            let rejected = await basecamp(
                ["--json", "projects", "list"],
                variables: credentials(baseURL, token: "revoked-token-5678")
            )
            let report = try rejected.errorReport()
            #expect(rejected.exitCode == 3)
            #expect(report.httpStatus == 401)
            #expect(!rejected.stderr.contains("revoked-token-5678"))

            var variables = credentials(baseURL)
            variables["BASECAMP_TOKEN"] = nil
            let missing = await basecamp(["--json", "projects", "list"], variables: variables)
            #expect(missing.exitCode == 3)
            #expect(try missing.errorReport().code == "auth_required")
        }
    }

    @Test("422 exits 9: the server's validation of a blank to-do")
    func validation() async throws {
        let blank = await basecamp([
            "--sandbox", "--json", "todos", "create", "--todolist", Self.checklist, "--content", " ",
        ])
        #expect(blank.exitCode == 9)
        let report = try blank.errorReport()
        #expect(report.code == "validation")
        #expect(report.message == "Validation failed (content: can't be blank)")
        let raw = await basecamp(["--sandbox", "api", "CreateTodo", "--param", "todolistId=\(Self.checklist)"])
        #expect(raw.exitCode == 9)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("429 with Retry-After is waited out, then the command succeeds")
    func rateLimited() async throws {
        let route = "/basecamp/\(BasecampSandboxModule.defaultAccountID)/projects.json"
        let faults = FaultInjection(sequence: [.tooManyRequests(retryAfterSeconds: 3)], pathPrefixes: [route])
        try await withBasecampSandbox(faults: faults) { sandbox, baseURL in
            let clock = TestClock()
            let result = await basecamp(["projects", "list"], variables: credentials(baseURL)) { $0.clock = clock }
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(result.stdout.contains("The Leto Laptop"))
            #expect(clock.sleeps == [.seconds(3)])
            #expect(sandbox.counters().requestsByPath[route] == 2)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("429 on every attempt exits 5; with --no-retry after one attempt")
    func rateLimitedToTheEnd() async throws {
        let route = "/basecamp/\(BasecampSandboxModule.defaultAccountID)/projects.json"
        let faults = FaultInjection(
            rules: [.init(.tooManyRequests(retryAfterSeconds: 1), probability: 1)],
            pathPrefixes: [route]
        )
        try await withBasecampSandbox(faults: faults) { sandbox, baseURL in
            let result = await basecamp(["--no-retry", "--json", "projects", "list"], variables: credentials(baseURL)) {
                $0.clock = TestClock()
            }
            #expect(result.exitCode == 5)
            #expect(sandbox.counters().requestsByPath[route] == 1)
        }
    }

    @Test(
        "Bad command lines exit 64",
        arguments: [
            ["--sandbox", "todos", "list"],
            ["--sandbox", "todos", "get", "abc"],
            ["--sandbox", "todos", "get", "0"],
            ["--sandbox", "todos", "list", "--todolist", "0"],
            ["--sandbox", "todos", "list", "--todolist", "1", "--limit", "0"],
            ["--sandbox", "todos", "create", "--todolist", "1"],
            ["--sandbox", "api", "NoSuchOperation"],
            ["--sandbox", "api", "GetProject", "--param", "projectId"],
            ["--sandbox", "api", "GetProject", "--param", "colour=red"],
            ["--sandbox", "api", "GetProject"],
            ["--sandbox", "api", "CreateTodo", "--param", "todolistId=1", "--body", "{not json"],
            ["--sandbox", "--base-url", "https://example.com", "projects", "list"],
            ["projects", "list"],
            ["--sandbox", "--account", "abc", "projects", "list"],
            ["todos", "frobnicate"],
        ]
    )
    func badArguments(_ arguments: [String]) async throws {
        let variables = ["BASECAMP_TOKEN": "test-token-1234", "BASECAMP_USER_AGENT": "tests (tests@example.com)"]
        let human = await basecamp(arguments, variables: variables)
        #expect(human.exitCode == 64, "\(arguments): \(human.stderr)")
        #expect(human.stdout.isEmpty)
        let json = await basecamp(["--json"] + arguments, variables: variables)
        #expect(json.exitCode == 64)
        #expect(try json.errorReport().code == "usage")
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("--verbose prints redacted request lines and never the token")
    func verbose() async throws {
        try await withBasecampSandbox { _, baseURL in
            let token = "secret-token-abcdef"
            let result = await basecamp(
                ["--verbose", "projects", "list"],
                variables: credentials(baseURL, token: token)
            )
            #expect(result.exitCode == 0)
            #expect(result.stderr.contains("[http] GET \(baseURL)/195539477/projects.json -> 200"))
            #expect(!result.stderr.contains(token))
            #expect(!result.stdout.contains(token))
            let flag = await basecamp(
                ["--verbose", "--token", token, "--json", "todos", "get", "1"],
                variables: ["BASECAMP_BASE_URL": baseURL, "BASECAMP_ACCOUNT_ID": "195539477"]
            )
            #expect(flag.exitCode == 2)
            #expect(!flag.stderr.contains(token))
        }
    }
}
