import APISandbox
import ArgumentParser
import BasecampSandbox
import CLISupport
import Foundation
import HTTPCore
import Testing

@testable import BasecampCLI

@Suite("basecamp output formats, comments and generated help")
struct OutputTests {
    static let hardware = "1069479338"
    static let kickoff = "1069479988"

    @Test(
        "--json names: the API's snake_case as the SDK spells it",
        arguments: [
            ("due_on", "dueOn"), ("app_url", "appURL"), ("assignee_ids", "assigneeIDs"), ("id", "id"),
            ("comments_count", "commentsCount"), ("download_urls", "downloadURLs"), ("ID", "ID"), ("_", "_"),
            ("trailing_", "trailing"), ("Mixed_Case_id", "mixedCaseID"),
        ]
    )
    func swiftNames(key: String, name: String) {
        #expect(OutputFormatter.swiftName(key) == name)
    }

    @Test("--format csv/tsv/jsonl and --fields on a list, by the --json names")
    func formats() async throws {
        let csv = await basecamp(
            [
                "--sandbox", "todos", "list", "--todolist", Self.hardware, "--limit", "2", "--format", "csv",
                "--fields", "id,content,creator.name,dueOn",
            ]
        )
        #expect(csv.exitCode == 0, "\(csv.stderr)")
        let lines = csv.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "id,content,creator.name,dueOn")
        #expect(lines[1] == "1069479395,Program the flux capacitor,Victor Cooper,2026-02-06")
        #expect(lines.count == 4)

        let tsv = await basecamp(
            [
                "--sandbox", "todos", "list", "--todolist", Self.hardware, "--limit", "1", "--format", "tsv",
                "--fields", "id,description",
            ]
        )
        #expect(
            tsv.stdout == "id\tdescription\n1069479395\t<div>Use the <strong>1.21 gigawatt</strong> setting.</div>\n"
        )

        let jsonl = await basecamp(["--sandbox", "projects", "list", "--format", "jsonl", "--fields", "id,name"])
        let objects = try jsonl.stdout.split(separator: "\n").map { try JSONValue(parsing: Data($0.utf8)) }
        #expect(objects.count == 3)
        #expect(objects.first == ["id": 2_085_958_504, "name": "The Leto Laptop"])
    }

    @Test("An unknown field exits 64 and lists the fields; a nested one lists that object's")
    func unknownField() async {
        let result = await basecamp(["--sandbox", "projects", "list", "--fields", "id,nmae"])
        #expect(result.exitCode == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(#"--fields: no field "nmae"; the fields are: "#))
        #expect(result.stderr.contains("appURL"))
        let nested = await basecamp(
            ["--sandbox", "todos", "list", "--todolist", Self.hardware, "--limit", "1", "--fields", "creator.nmae"]
        )
        #expect(nested.exitCode == 64)
        #expect(
            nested.stderr.contains(#"creator has: creator.attachableSgid"#) || nested.stderr.contains("creator.name")
        )
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("An unknown field after a create or a replace is output_failed (exit 1) naming the applied write, not usage")
    func unknownFieldAfterWrite() async throws {
        try await withBasecampSandbox { sandbox, baseURL in
            let result = await basecamp(
                [
                    "--json", "todos", "create", "--todolist", Self.hardware, "--content", "Ship it",
                    "--fields", "id,idd",
                ],
                variables: credentials(baseURL)
            )
            #expect(result.exitCode == 1)
            #expect(result.stdout.isEmpty)
            let report = try result.errorReport()
            #expect(report.code == "output_failed")
            #expect(report.message.contains(#"no field "idd""#))
            #expect(report.message.contains("already applied POST "))
            #expect(report.hint?.contains("would repeat the write") == true)
            let posts = sandbox.counters().requestsByPath.filter { $0.key.hasSuffix("/todos.json") }
            #expect(posts.values.reduce(0, +) == 1)
        }
        // An idempotent write (a PUT) that was answered was applied all the same.
        try await withBasecampSandbox { sandbox, baseURL in
            let todo = String(BasecampSandboxSeed.fluxCapacitorTodoID)
            let edited = await basecamp(
                ["--json", "todos", "replace", todo, "--content", "Ship it", "--fields", "id,idd"],
                variables: credentials(baseURL)
            )
            #expect(edited.exitCode == 1, "\(edited.stderr)")
            let report = try edited.errorReport()
            #expect(report.code == "output_failed")
            #expect(report.message.contains("already applied PUT "))
        }
        // A read that fails the same check changed nothing, so it stays a usage error.
        let read = await basecamp(["--sandbox", "--json", "projects", "list", "--fields", "idd"])
        #expect(read.exitCode == 64)
    }

    @Test("api honours --format and --fields on the API's own names")
    func api() async {
        let result = await basecamp(
            [
                "--sandbox", "api", "ListTodos", "--param", "todolistId=\(Self.hardware)", "--limit", "1",
                "--format", "csv", "--fields", "id,due_on",
            ]
        )
        #expect(result.stdout == "id,due_on\n1069479395,2026-02-06\n")
    }

    @Test("comments list shows each comment's author and its text without HTML")
    func comments() async {
        let result = await basecamp(["--sandbox", "comments", "list", "--recording", Self.kickoff])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first?.contains("AUTHOR") == true)
        #expect(lines.first?.contains("CONTENT") == true)
        #expect(lines.contains { $0.contains("Annie Bryan") && $0.contains("Great news!") && !$0.contains("<div>") })
        #expect(lines.contains { $0.contains("Cheryl Walters") && $0.contains("Hinge samples arrive next week.") })
    }

    @Test(
        "Rich text as plain text",
        arguments: [
            ("<div>Great <strong>news</strong>!</div>", "Great news!"),
            ("<div>One</div><div>two<br>three</div>", "One two three"),
            ("<p>a &amp; b &lt;c&gt; &#39;d&#39; &#x2019;</p>", "a & b <c> 'd' ’"),
            ("Plain 1 < 2 and R&D", "Plain 1 < 2 and R&D"),
            ("<ul><li>one</li><li>two</li></ul>", "one two"),
        ]
    )
    func html(input: String, text: String) {
        #expect(HTMLText.plain(input) == text)
    }

    @Test("Long titles are whole in a pipe and cut to COLUMNS on a narrow terminal")
    func width() async {
        let piped = await basecamp([
            "--sandbox", "messages", "list", "--project", "2085958504", "--board", "1069479340",
        ])
        #expect(piped.exitCode == 0, "\(piped.stderr)")
        let narrow = await basecamp(
            ["--sandbox", "messages", "list", "--project", "2085958504", "--board", "1069479340"],
            variables: ["COLUMNS": "50"]
        )
        #expect(narrow.stdout.split(separator: "\n").allSatisfy { DisplayWidth.of($0) <= 50 })
        #expect(piped.stdout.split(separator: "\n").contains { DisplayWidth.of($0) > 50 })
    }

    @Test("The progress line names the page asked for and is gone before the table")
    func progress() async {
        let screen = CapturedOutput()
        let environment = CLIEnvironment(standardOutput: screen, standardError: screen, standardErrorIsTerminal: true)
        let code = await CLIRunner.run(
            BasecampCommand.self,
            arguments: ["--sandbox", "todos", "list", "--todolist", Self.hardware, "--page", "2"],
            environment: environment
        )
        #expect(code == 0)
        #expect(screen.text.hasPrefix("\r\u{1B}[2KFetching ListTodos: page 2, 50 of 120 items…\r\u{1B}[2K        ID  "))
    }

    @Test("Enum options list their values in help and refuse others with exit 64 before any request")
    func enums() async {
        let help = await basecamp(["messages", "create", "--help"]) { $0.columns = 200 }
        #expect(help.stdout.contains("Body field status: active or drafted."))
        let bad = await basecamp(
            ["--sandbox", "messages", "create", "--board", "1069479340", "--subject", "Hi", "--status", "published"]
        ) { $0.columns = 200 }
        #expect(bad.exitCode == 64)
        #expect(
            bad.stderr.contains(
                "The value 'published' is invalid for '--status <status>': use one of: active, drafted."
            )
        )
        let good = await basecamp(
            ["--sandbox", "messages", "create", "--board", "1069479340", "--subject", "Hi", "--status", "drafted"]
        )
        #expect(good.exitCode == 0, "\(good.stderr)")
    }

    @Test("search --type-names takes type names, as the API does")
    func typeNames() async {
        let result = await basecamp(
            [
                "--sandbox", "--verbose", "search", "search", "--q", "flux", "--type-names", "Todo", "--type-names",
                "Message",
            ]
        )
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains("type_names%5B%5D=Todo&type_names%5B%5D=Message"))
    }

    @Test("Every generated command's help has an example on one line, at any width")
    func examples() async {
        for group in ServiceCommands.all {
            // Hand-written commands in a group (`todos edit`, `webhooks listen`) have their own help tests.
            for command in group.configuration.subcommands where command is any OperationCommand.Type {
                let path = [group.configuration.commandName ?? "", command.configuration.commandName ?? ""]
                let help = Self.help(for: command, width: 60)
                let lines = help.split(separator: "\n")
                guard let index = lines.firstIndex(of: "Example:") else {
                    Issue.record("\(path) has no example")
                    continue
                }
                #expect(lines[index + 1].hasPrefix("  basecamp --sandbox \(path[0]) \(path[1])"))
                #expect(lines.contains("Same call, raw JSON:"))
                #expect(!help.contains("one of the values below"))
            }
        }
    }

    @Test("The help drawn for a command is what `basecamp … --help` prints")
    func helpAsPrinted() async {
        for (arguments, command) in [
            (["todos", "list"], TodosListCommand.self as any ParsableCommand.Type),
            (["messages", "create"], MessagesCreateCommand.self),
        ] {
            let printed = await basecamp(arguments + ["--help"]) { $0.columns = 60 }
            #expect(printed.exitCode == 0)
            #expect(printed.stdout == Self.help(for: command, width: 60) + "\n")
        }
    }

    /// The help `basecamp … --help` prints for `command` at `width` columns, drawn without
    /// running the tool: parsing a command line costs a debug build ~50 ms, and ``examples()``
    /// draws 250 helps.
    static func help(for command: any ParsableCommand.Type, width: Int) -> String {
        GlobalOptions.$environmentPrefix.withValue(BasecampCommand.environmentPrefix) {
            HelpText.wrap(
                BasecampCommand.helpMessage(for: command, columns: HelpText.unwrappedWidth),
                width: width,
                commands: [BasecampCommand.toolName]
            )
        }
    }
}
