import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Testing

@Suite("CLIRunner: exit codes, error reports and output streams")
struct RunnerTests {
    @Test("Success: results on stdout, notes on stderr, exit 0")
    func success() async {
        let result = await CLIRunner.capture(TestTool.self, arguments: ["say", "hello", "world"])
        #expect(result.exitCode == 0)
        #expect(result.stdout == "hello world\n")
        #expect(result.stderr == "said 2 words\n")
    }

    @Test("--json results are JSON on stdout, before or after the subcommand")
    func json() async throws {
        for arguments in [["--json", "say", "a", "b"], ["say", "--json", "a", "b"]] {
            let result = await CLIRunner.capture(TestTool.self, arguments: arguments)
            #expect(result.exitCode == 0)
            #expect(try result.json([String].self) == ["a", "b"])
            #expect(result.stderr.isEmpty)
        }
    }

    @Test(
        "An APIError exits with its exit code and a human message on stderr",
        arguments: APIError.Code.allCases
    )
    func apiErrors(code: APIError.Code) async {
        let result = await CLIRunner.capture(TestTool.self, arguments: ["fail", "--code", code.rawValue])
        #expect(result.exitCode == code.exitCode)
        #expect(result.stdout.isEmpty)
        // A usage error reads like ArgumentParser's own, with the command's usage line.
        #expect(
            result.stderr.hasPrefix(code == .usage ? "Error: It failed.\nUsage: testtool fail" : "error: It failed.")
        )
    }

    @Test("The human message carries status, request id and hint")
    func humanMessage() async {
        let result = await CLIRunner.capture(TestTool.self, arguments: ["fail"])
        #expect(result.stderr == "error: It failed. (HTTP 500, request req-7)\n")
        let notFound = await CLIRunner.capture(TestTool.self, arguments: ["fail", "--code", "not_found"])
        #expect(notFound.stderr == "error: It failed.\nhint: Look elsewhere.\n")
    }

    @Test("With --json a failure is one JSON object with every key on stderr")
    func jsonError() async throws {
        let result = await CLIRunner.capture(TestTool.self, arguments: ["--json", "fail"])
        #expect(result.exitCode == 7)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1)
        let report = try result.errorReport()
        #expect(
            report
                == ErrorReport(
                    code: "api_error",
                    message: "It failed.",
                    hint: nil,
                    httpStatus: 500,
                    requestId: "req-7",
                    retryable: true,
                    exitCode: 7
                )
        )
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any]
        )
        #expect(
            Set(object.keys) == ["code", "message", "hint", "httpStatus", "requestId", "retryable", "exitCode"]
        )
        #expect(object["hint"] is NSNull)
    }

    @Test(
        "Bad arguments exit 64 with ArgumentParser's message",
        arguments: [
            ["say", "--bogus"],
            ["nosuchcommand"],
            ["fail", "--code"],
            ["--timeout", "0", "say"],
            ["--timeout", "soon", "say"],
            ["--sandbox", "--base-url", "http://127.0.0.1:1", "say"],
        ]
    )
    func badArguments(arguments: [String]) async {
        let result = await CLIRunner.capture(TestTool.self, arguments: arguments)
        #expect(result.exitCode == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: "))
        #expect(result.stderr.contains("Usage: testtool"))
    }

    @Test("Bad arguments with --json: one JSON object, code usage, exit 64")
    func badArgumentsJSON() async throws {
        let result = await CLIRunner.capture(TestTool.self, arguments: ["--json", "say", "--bogus"])
        #expect(result.exitCode == 64)
        let report = try result.errorReport()
        #expect(report.code == "usage")
        #expect(report.exitCode == 64)
        #expect(report.message == "Unknown option '--bogus'")
        #expect(report.hint == "Run 'testtool say --help' for usage.")
    }

    @Test("A ValidationError thrown while running also exits 64")
    func validationInRun() async {
        let result = await CLIRunner.capture(TestTool.self, arguments: ["fail", "--bad-usage"])
        #expect(result.exitCode == 64)
        #expect(result.stderr.hasPrefix("Error: --code needs a friend"))
    }

    @Test("An unexpected error exits 1 with code internal")
    func unexpected() async throws {
        try await expectFailure(["fail", "--internal-error"], exitCode: 1, stderr: "error: boom\n", code: "internal")
    }

    @Test("Help, version and the root without a subcommand print to stdout and exit 0")
    func help() async {
        for arguments in [["--help"], ["say", "--help"], ["help", "say"], []] {
            let result = await CLIRunner.capture(TestTool.self, arguments: arguments)
            #expect(result.exitCode == 0, "\(arguments)")
            #expect(result.stdout.contains("USAGE: testtool"), "\(arguments)")
            #expect(result.stderr.isEmpty)
        }
        let version = await CLIRunner.capture(TestTool.self, arguments: ["--version"])
        #expect(version.stdout == "1.2.3\n")
        let root = await CLIRunner.capture(TestTool.self, arguments: ["--help"])
        #expect(root.stdout.contains("TESTTOOL_BASE_URL"))
        #expect(root.stdout.contains(" 64 usage"))
    }

    @Test("Completion scripts are ArgumentParser's, on stdout", arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) async {
        let result = await CLIRunner.capture(TestTool.self, arguments: ["--generate-completion-script", shell])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("testtool"))
        #expect(result.stdout.contains("timeout"))
    }

    @Test("Environment variables come only from the given environment")
    func hermetic() async {
        let result = await CLIRunner.capture(TestTool.self, arguments: ["fetch"], variables: ["PATH": "/bin"])
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("No base URL: pass --base-url URL, set TESTTOOL_BASE_URL"))
    }
}

@Suite("Credentials are never echoed")
struct SecretTests {
    static let token = "tok-3f9a8b7c6d5e"

    @Test("A token from the flag or the environment is scrubbed from stdout")
    func scrubbed() async {
        let fromFlag = await CLIRunner.capture(TestTool.self, arguments: ["--token", Self.token, "whoami"])
        let fromEquals = await CLIRunner.capture(TestTool.self, arguments: ["--token=\(Self.token)", "whoami"])
        let fromVariable = await CLIRunner.capture(
            TestTool.self,
            arguments: ["whoami"],
            variables: ["TESTTOOL_TOKEN": Self.token]
        )
        for result in [fromFlag, fromEquals, fromVariable] {
            #expect(result.exitCode == 0)
            #expect(result.stdout == "token: [REDACTED]\nlength: \(Self.token.count)\n")
            #expect(!result.stdout.contains(Self.token))
        }
    }

    @Test("The flag wins over the environment, and the sandbox stands in for both")
    func precedence() async {
        let both = await CLIRunner.capture(
            TestTool.self,
            arguments: ["--token", "flag-value-1", "whoami"],
            variables: ["TESTTOOL_TOKEN": "env-value-22"]
        )
        #expect(both.stdout.contains("length: 12\n"))
        let sandbox = await CLIRunner.capture(TestTool.self, arguments: ["--sandbox", "whoami"])
        #expect(sandbox.stdout.contains("length: \("sandbox-token".count)"))
    }

    @Test("A missing credential is auth_required (exit 3) naming the flag and variable")
    func missing() async throws {
        let result = await CLIRunner.capture(TestTool.self, arguments: ["--json", "whoami"])
        #expect(result.exitCode == 3)
        let report = try result.errorReport()
        #expect(report.code == "auth_required")
        #expect(report.message.contains("--token"))
        #expect(report.hint?.contains("TESTTOOL_TOKEN") == true)
    }

    @Test("A secret quoted by an argument error is scrubbed too")
    func parseErrors() async {
        // The token lands as an unexpected positional argument, which ArgumentParser quotes.
        let result = await CLIRunner.capture(TestTool.self, arguments: ["--token", Self.token, "fail", Self.token])
        #expect(result.exitCode == 64)
        #expect(!result.stderr.contains(Self.token))
        #expect(result.stderr.contains("[REDACTED]"))
    }
    @Test("A secret equal to a number in JSON becomes a string, so each jsonl line parses; stderr says so")
    func secretInJSONResults() async throws {
        let result = await CLIRunner.capture(
            TestTool.self,
            arguments: ["stream", "--lines", "1000", "--format", "jsonl"],
            variables: ["TESTTOOL_TOKEN": "1000"]
        )
        #expect(result.exitCode == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1000)
        #expect(lines.allSatisfy { (try? JSONValue(parsing: Data($0.utf8))) != nil })
        #expect(lines.last == #"{"line":"[REDACTED]"}"#)
        #expect(result.stderr.contains("note: [REDACTED] in the results stands for text equal to a secret"))

        let text = await CLIRunner.capture(
            TestTool.self,
            arguments: ["stream", "--lines", "999"],
            variables: ["TESTTOOL_TOKEN": "1000"]
        )
        #expect(text.stdout.hasSuffix("line 999\n"))
        #expect(!text.stderr.contains("[REDACTED]"), "no note when nothing was replaced")
    }
}
