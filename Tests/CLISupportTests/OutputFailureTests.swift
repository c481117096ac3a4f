import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the test tool in-process with a stdout that fails after `bytes` bytes with `code`.
func runWithFailingStdout(
    _ arguments: [String],
    after bytes: Int = 0,
    code: Int32
) async -> CommandResult {
    let stdout = CapturedOutput(failingAfter: bytes, with: OutputFailure(code: code))
    let stderr = CapturedOutput()
    let environment = CLIEnvironment(standardOutput: stdout, standardError: stderr)
    let exitCode = await CLIRunner.run(TestTool.self, arguments: arguments, environment: environment)
    return CommandResult(exitCode: exitCode, stdout: stdout.text, stderr: stderr.text)
}

@Suite("A stdout that cannot be written: closed pipe or full disk")
struct OutputFailureTests {
    @Test(
        "A closed pipe ends the command quietly with 141",
        arguments: [["say", "hello"], ["--json", "say", "a"], ["--help"], ["say", "--help"], ["--version"]]
    )
    func closedPipe(arguments: [String]) async {
        let result = await runWithFailingStdout(arguments, code: EPIPE)
        #expect(result.exitCode == ExitPolicy.closedPipe)
        #expect(result.exitCode == 141)
        // Only the command's own note, if any: nothing about the pipe.
        #expect(result.stderr.isEmpty || result.stderr == "said 1 words\n", "\(result.stderr)")
    }

    @Test("Any other write failure is one line on stderr and exit 1, human or JSON")
    func fullDisk() async throws {
        let human = await runWithFailingStdout(["say", "hello"], code: ENOSPC)
        #expect(human.exitCode == 1)
        #expect(
            human.stderr
                == "said 1 words\nerror: Cannot write the results to standard output: No space left on device.\n"
        )
        let json = await runWithFailingStdout(["--json", "say", "hello"], code: ENOSPC)
        #expect(json.exitCode == 1)
        let report = try json.errorReport()
        #expect(report.code == "output_failed")
        #expect(report.exitCode == 1)
        #expect(json.stderr.split(separator: "\n").count == 1)
    }

    @Test("Losing stdout stops a command that is still printing, as SIGPIPE would")
    func cancelsTheCommand() async {
        let result = await runWithFailingStdout(["stream"], after: 100, code: EPIPE)
        #expect(result.exitCode == 141)
        #expect(result.stdout.hasPrefix("line 1\nline 2\n"))
        #expect(!result.stderr.contains("streamed every line"))

        let full = await runWithFailingStdout(["stream", "--json"], after: 100, code: ENOSPC)
        #expect(full.exitCode == 1)
        #expect(!full.stderr.contains("streamed every line"))
    }

    @Test("The output failure decides the outcome, not what the command did after it")
    func outputFailureWins() async {
        let result = await runWithFailingStdout(
            ["stream", "--lines", "3", "--fail-afterwards"],
            after: 8,
            code: ENOSPC
        )
        #expect(result.exitCode == 1)
        #expect(!result.stderr.contains("Gone after printing"))
        #expect(
            result.stderr.hasSuffix("error: Cannot write the results to standard output: No space left on device.\n")
        )
    }

    @Test("An error goes to stderr even when stdout is closed, with its own exit code")
    func errorsStillReported() async {
        let result = await runWithFailingStdout(["fail", "--code", "not_found"], code: EPIPE)
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("error: It failed."))
    }

    @Test("The standard streams write with write(2): a failure is recorded, never a trap")
    func standardStreamFailure() {
        #expect(OutputFailure(code: EPIPE).isClosedPipe)
        #expect(!OutputFailure(code: ENOSPC).isClosedPipe)
        #expect(OutputFailure(code: ENOSPC).description == "No space left on device")
    }
}
