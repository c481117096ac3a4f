import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Testing

@Suite("Exit policy: one rule, written where users read it")
struct ExitPolicyTests {
    /// A text file of this package, by its path from the root: README.md by default.
    static func document(_ file: String = "README.md", filePath: String = #filePath) throws -> String {
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appending(path: "Package.swift").path) {
            let parent = directory.deletingLastPathComponent()
            try #require(parent.path != directory.path, "no Package.swift above \(filePath)")
            directory = parent
        }
        return try String(contentsOf: directory.appending(path: file), encoding: .utf8)
    }

    /// The rows of the first Markdown table whose header is `header`, as cells without
    /// backticks.
    static func table(_ header: String, in text: String) throws -> [[String]] {
        let lines = text.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: header), "no table \(header)")
        return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "") }
        }
    }

    @Test("README's command-line exit table is ExitPolicy's, row for row")
    func readmeToolTable() throws {
        let rows = try Self.table("| exit | code | when |", in: Self.document())
        let documented = rows.map { "\($0[0]) \($0[1])" }
        let policy = ExitPolicy.rules.map { "\($0.exitCode) \($0.code)".trimmingCharacters(in: .whitespaces) }
        #expect(documented.map { $0.trimmingCharacters(in: .whitespaces) } == policy)
    }

    @Test("docs/http-client.md's error table gives every APIError code its exit code")
    func documentedErrorTable() throws {
        let rows = try Self.table("| code | from | exit code | retryable |", in: Self.document("docs/http-client.md"))
        let documented = Dictionary(uniqueKeysWithValues: rows.map { ($0[0], $0[2]) })
        #expect(documented.count == APIError.Code.allCases.count)
        for code in APIError.Code.allCases {
            #expect(documented[code.rawValue] == String(code.exitCode), "\(code)")
        }
    }

    @Test("The policy: usage is 64 like ArgumentParser's errors; codes are unique; API errors keep their table")
    func policy() {
        #expect(ExitPolicy.usage == 64)
        #expect(APIError.Code.usage.exitCode == 64)
        let codes = ExitPolicy.rules.map(\.code).filter { !$0.isEmpty }
        #expect(Set(codes).count == codes.count)
        for code in APIError.Code.allCases {
            #expect(ExitPolicy.rules.contains { $0.code == code.rawValue && $0.exitCode == code.exitCode })
        }
        #expect(ExitPolicy.rules.map(\.exitCode) == ExitPolicy.rules.map(\.exitCode).sorted())
    }

    @Test("--help lists every rule")
    func help() async {
        let help = await CLIRunner.capture(TestTool.self, arguments: ["--help"], configure: { $0.columns = 100 })
        for rule in ExitPolicy.rules {
            let name = rule.code.isEmpty ? "success" : rule.code
            #expect(help.stdout.contains("\(rule.exitCode) \(name)"), "\(name)")
        }
        #expect(help.stdout.contains("is 64 (usage), found before any request is sent"))
    }

    @Test("A typed error that reports as an APIError prints its message and hint and exits with its code")
    func typedError() async throws {
        try await expectFailure(
            ["fail", "--typed"],
            exitCode: 10,
            stderr: "error: The quota is used up.\nhint: Wait for May.\n",
            code: "limit_exceeded"
        )
    }

    @Test("A configuration error found later is code configuration, exit 1")
    func configuration() async throws {
        try await expectFailure(
            ["fail", "--misconfigured"],
            exitCode: 1,
            stderr: "error: ~/.testtool is not readable.\nhint: Fix its permissions.\n",
            code: "configuration"
        )
    }

    @Test("A usage error found after parsing prints the subcommand's usage line, not the tool's")
    func subcommandUsage() async throws {
        let validation = await CLIRunner.capture(TestTool.self, arguments: ["group", "leaf", "bob"])
        #expect(validation.exitCode == 64)
        #expect(
            validation.stderr == """
                Error: bob is not a good name.
                Usage: testtool group leaf <name> [--sdk]
                  See 'testtool group leaf --help' for more information.

                """
        )
        let sdk = await CLIRunner.capture(TestTool.self, arguments: ["group", "leaf", "bob", "--sdk"])
        #expect(sdk.exitCode == 64)
        #expect(
            sdk.stderr.hasPrefix("Error: name must not be bob.\nHint: Pick another name.\nUsage: testtool group leaf")
        )

        let json = await CLIRunner.capture(TestTool.self, arguments: ["--json", "group", "leaf", "bob"])
        let report = try json.errorReport()
        #expect(
            report
                == ErrorReport(
                    code: "usage",
                    message: "bob is not a good name.",
                    hint: "Run 'testtool group leaf --help' for usage.",
                    exitCode: 64
                )
        )
        let parseError = await CLIRunner.capture(TestTool.self, arguments: ["--json", "group", "leaf"])
        #expect(try parseError.errorReport().hint == "Run 'testtool group leaf --help' for usage.")
    }

    @Test("The 429 hint names what a command line can do, not client settings")
    func rateLimitHint() async {
        let waited = await CLIRunner.capture(
            TestTool.self,
            arguments: [
                "fail", "--code", "rate_limit", "--retry-after", "120", "--hint", "Try again, or raise maxRetryAfter.",
            ]
        )
        #expect(waited.exitCode == 5)
        #expect(
            waited.stderr
                == "error: It failed.\nhint: The server asked to wait 120 s: run the command again after that.\n"
        )
        let unknown = await CLIRunner.capture(TestTool.self, arguments: ["fail", "--code", "rate_limit"])
        #expect(
            unknown.stderr.contains("hint: The server is limiting requests: wait a minute, then run the command again.")
        )
    }
}
