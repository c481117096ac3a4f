import APISandbox
import ArgumentParser
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Hummingbird
import Testing

/// A small tool that exercises every CLISupport convention without any real API.
struct TestTool: CommandLineTool {
    static let configuration = CommandConfiguration(
        commandName: "testtool",
        abstract: "CLISupport's test tool.",
        discussion: GlobalOptions.discussion(
            environmentPrefix: "TESTTOOL",
            variables: [(name: "TESTTOOL_TOKEN", meaning: "the API token (--token wins)")]
        ),
        version: "1.2.3",
        subcommands: [
            Say.self, Fail.self, Whoami.self, Fetch.self, Pages.self, Stream.self, Group.self, Records.self,
            Record.self, Echo.self,
        ]
    )
    static let environmentPrefix = "TESTTOOL"
    static let sandboxBasePath = "/testtool"
    static let secretOptionNames = ["--token"]
    static let secretEnvironmentVariables = ["TESTTOOL_TOKEN"]

    @available(macOS 14, iOS 17, tvOS 17, *)
    static func sandboxModules(environment: CLIEnvironment) -> [any SandboxModule] {
        [CannedResponseModule(path: "testtool/hello", body: #"{"greeting":"hello from the sandbox"}"#)]
    }

    @OptionGroup var global: GlobalOptions
    @Option(help: "The API token.") var token: String?
}

/// Prints its words, as a table or JSON.
struct Say: ToolCommand {
    static let configuration = CommandConfiguration(
        discussion: """
            Prints its words. This sentence is long enough to wrap at fifty columns, so a test can see prose wrap.

            Example:
              testtool say --format csv --fields id,name,creator.name,tags,score
            """
    )
    @ParentCommand var tool: TestTool
    var global: GlobalOptions { tool.global }
    @Argument var words: [String] = []

    func run(in context: CommandContext) async throws {
        if context.outputsJSON {
            try context.printJSON(words)
        } else {
            context.print(words.joined(separator: " "))
            context.note("said \(words.count) words")
        }
    }
}

/// Throws the APIError named by --code.
struct Fail: ToolCommand {
    @ParentCommand var tool: TestTool
    var global: GlobalOptions { tool.global }
    @Option var code: String = "api_error"
    @Option var hint: String?
    @Option var retryAfter: Int?
    @Flag var internalError = false
    @Flag var badUsage = false
    @Flag var misconfigured = false
    @Flag var typed = false

    struct Boom: Error, CustomStringConvertible {
        var description: String { "boom" }
    }

    /// A library's own typed error that reports as an APIError.
    struct QuotaError: APIErrorConvertible {
        var apiError: APIError {
            .limitExceeded(APIError.Details(message: "The quota is used up.", hint: "Wait for May.", cause: self))
        }
    }

    func run(in context: CommandContext) async throws {
        if internalError { throw Boom() }
        if badUsage { throw ValidationError("--code needs a friend") }
        if misconfigured { throw ConfigurationError("~/.testtool is not readable.", hint: "Fix its permissions.") }
        if typed { throw QuotaError() }
        let details = APIError.Details(
            message: "It failed.",
            hint: hint ?? (code == "not_found" ? "Look elsewhere." : nil),
            httpStatus: code == "api_error" ? 500 : nil,
            requestID: code == "api_error" ? "req-7" : nil,
            retryAfter: retryAfter.map { .seconds($0) }
        )
        throw APIError(APIError.Code(rawValue: code) ?? .apiError, details)
    }
}

/// Resolves the token and prints it (which the scrubber must hide).
struct Whoami: ToolCommand {
    @ParentCommand var tool: TestTool
    var global: GlobalOptions { tool.global }

    func run(in context: CommandContext) async throws {
        let token = try context.credential(
            tool.token,
            option: "--token",
            variable: "TESTTOOL_TOKEN",
            sandboxValue: "sandbox-token"
        )
        context.print("token: \(token)")
        context.print("length: \(token.count)")
    }
}

/// Prints what it reads from stdin.
struct Echo: ToolCommand {
    @ParentCommand var tool: TestTool
    var global: GlobalOptions { tool.global }

    func run(in context: CommandContext) async throws {
        let data = try await context.standardInput(limit: 1024)
        context.print("read: \(String(decoding: data, as: UTF8.self))")
    }
}

/// GETs `hello` from the API and prints the base URL and body.
struct Fetch: ToolCommand {
    @ParentCommand var tool: TestTool
    var global: GlobalOptions { tool.global }
    @Option var secretQuery: String?
    @Option var path = "hello"
    @Flag var post = false

    func run(in context: CommandContext) async throws {
        var connection = try await context.connection()
        connection.configuration.redactor.addSecretQueryParameter("apikey")
        let client = try Client(configuration: connection.configuration, transport: connection.transport)
        let body = try await client.send(Endpoint<JSONValue>(post ? .post : .get, path, query: ["apikey": secretQuery]))
        context.print("base: \(connection.configuration.baseURL.absoluteString)")
        context.print("retry attempts: \(connection.configuration.retry.maxAttempts)")
        context.print("timeout ms: \(Int(connection.configuration.timeout / .milliseconds(1)))")
        context.print("body: \(body["greeting"]?.stringValue ?? "?")")
    }
}

/// Draws progress for a fake walk of three pages (or of `--from` to 3), stopping early after
/// `--stop-after` pages as `--limit` does.
struct Pages: ToolCommand {
    @ParentCommand var tool: TestTool
    var global: GlobalOptions { tool.global }
    @Option var from = 1
    @Option var stopAfter: Int?
    @Flag var failAfterwards = false

    func run(in context: CommandContext) async throws {
        let hooks = ProgressHooks(reporter: context.progress)
        for index in 0..<(stopAfter ?? (4 - from)) {
            hooks.page(
                PageEvent(
                    operation: OperationMetadata(name: "ListThings"),
                    url: "https://example.com/things?page=\(index + from)",
                    index: index,
                    itemCount: 20,
                    status: 200,
                    fromCache: false,
                    hasNext: index + from < 3,
                    totalCount: 60
                )
            )
        }
        if failAfterwards { throw APIError.notFound(APIError.Details(message: "Gone.")) }
        context.print("done")
    }
}

/// Prints numbered lines until it is cancelled (or 10,000 lines, noting that it was not); with
/// `--fail-afterwards` it ignores cancellation and fails once it has printed them all.
struct Stream: ToolCommand {
    @ParentCommand var tool: TestTool
    var global: GlobalOptions { tool.global }
    @Option var lines = 10_000
    @Flag var failAfterwards = false

    func run(in context: CommandContext) async throws {
        for number in 1...lines {
            if !failAfterwards { try Task.checkCancellation() }
            if context.outputsJSON {
                try context.printJSON(["line": number])
            } else {
                context.print("line \(number)")
            }
            await Task.yield()
        }
        context.note("streamed every line")
        if failAfterwards { throw APIError.notFound(APIError.Details(message: "Gone after printing.")) }
    }
}

/// A command group, for usage lines of nested subcommands.
struct Group: AsyncParsableCommand {
    static let configuration = CommandConfiguration(subcommands: [Leaf.self])

    /// Throws a usage error after parsing, as `--bad-usage` or an SDK's `APIError.usage`.
    struct Leaf: ToolCommand {
        @ParentCommand var tool: TestTool
        var global: GlobalOptions { tool.global }
        @Argument var name: String
        @Flag var sdk = false

        func run(in context: CommandContext) async throws {
            if sdk { throw APIError.usage("name must not be \(name).", hint: "Pick another name.") }
            throw ValidationError("\(name) is not a good name.")
        }
    }
}

/// A list for the output formats: awkward values on purpose.
struct Records: ToolCommand {
    @ParentCommand var tool: TestTool
    var global: GlobalOptions { tool.global }
    @Flag var none = false

    struct Person: Encodable {
        var name: String
        var id: Int
    }

    struct Row: Encodable {
        var id: Int
        var name: String
        var note: String?
        var tags: [String]
        var creator: Person
        var score: Double?
    }

    static let rows = [
        Row(
            id: 1,
            name: "Ada, \"the\" first",
            note: "line one\nline two",
            tags: ["math", "code"],
            creator: Person(name: "Bo", id: 7),
            score: 9.5
        ),
        Row(id: 22, name: "Tab\there", note: nil, tags: [], creator: Person(name: "Cy", id: 8), score: nil),
    ]

    func run(in context: CommandContext) async throws {
        let rows = none ? [] : Self.rows
        try context.printList(rows) {
            var table = TextTable(columns: [.init("ID", alignment: .right), .init("NAME")])
            for row in rows { table.append([String(row.id), row.name]) }
            context.print(table)
        }
    }
}

/// One record for the output formats.
struct Record: ToolCommand {
    @ParentCommand var tool: TestTool
    var global: GlobalOptions { tool.global }

    func run(in context: CommandContext) async throws {
        try context.printRecord(Records.rows[0]) {
            context.print("Record 1")
        }
    }
}

/// Runs `arguments` once for a person and once with `--json`, and checks the exit code, what a
/// person reads on stderr, and the JSON error's code.
func expectFailure(
    _ arguments: [String],
    exitCode: Int32,
    stderr: String,
    code: String,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let human = await CLIRunner.capture(TestTool.self, arguments: arguments)
    #expect(human.exitCode == exitCode, sourceLocation: sourceLocation)
    #expect(human.stderr == stderr, sourceLocation: sourceLocation)
    let json = await CLIRunner.capture(TestTool.self, arguments: ["--json"] + arguments)
    #expect(try json.errorReport().code == code, sourceLocation: sourceLocation)
}
