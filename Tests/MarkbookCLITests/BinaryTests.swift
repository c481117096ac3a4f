import CLISupport
import Foundation
import Testing

/// A few runs of the real `markbook` executable: what the OS and a shell see.
@Suite("The built markbook executable")
struct BinaryTests {
    @Test("markbook --sandbox list works as a process")
    func list() async throws {
        let result = try await runBuiltMarkbook(["--sandbox", "list"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout.hasPrefix(
                "    KEY  NAME                YEAR  COURSE               OWNER\n1000001  10MAT1 Mathematics"
            )
        )
    }

    @Test("markbook --sandbox show 1000001 prints the grid")
    func show() async throws {
        let result = try await runBuiltMarkbook(["--sandbox", "show", "1000001"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("10MAT1 Mathematics (1000001) · 2024 · Year 10 Mathematics\n"))
        #expect(result.stdout.contains("5003  Chen, Will         100262  10MAT1-A  47.0    19  28.0    92  10.0\n"))
    }

    @Test("Credentials from the environment are never echoed, even with --verbose")
    func environmentCredentials() async throws {
        let secret = "env-Secret-Password-42"
        let result = try await runBuiltMarkbook(
            ["--sandbox", "--verbose", "--json", "users"],
            variables: [
                "MARKBOOK_API_KEY": "ENVKEY0000000000000000000000000a", "MARKBOOK_USERNAME": "me",
                "MARKBOOK_PASSWORD": secret,
            ]
        )
        #expect(result.exitCode == 0)
        #expect(result.stderr.contains("apikey=[REDACTED]"))
        #expect(!(result.stdout + result.stderr).contains(secret))
        #expect(!(result.stdout + result.stderr).contains("ENVKEY0000000000000000000000000a"))
    }

    @Test("Exit codes: not found 2, a bad argument value or command line 64")
    func exitCodes() async throws {
        #expect(try await runBuiltMarkbook(["--sandbox", "show", "7"]).exitCode == 2)
        #expect(
            try await runBuiltMarkbook(["--sandbox", "backup", "schedule", "x"]).exitCode
                == 64
        )
        let bad = try await runBuiltMarkbook(["show"])
        #expect(bad.exitCode == 64)
        #expect(bad.stdout.isEmpty)
    }

    @Test("Bad argument values exit 64 with the subcommand's usage line, before any request")
    func argumentValues() async throws {
        let zero = try await runBuiltMarkbook(["show", "0"])
        #expect(zero.exitCode == 64)
        #expect(zero.stderr.contains("keys are whole numbers above 0"))
        #expect(zero.stderr.contains("Usage: markbook show <key>"))
        let scientific = try await runBuiltMarkbook([
            "--json", "result", "set", "1000001", "--student", "5004", "--task", "4003", "--result", "1e3",
        ])
        #expect(scientific.exitCode == 64)
        let report = try scientific.errorReport()
        #expect(report.code == "usage")
        #expect(report.message.hasPrefix("--result \"1e3\" is not a plain decimal number"))
        #expect(report.hint == "Run 'markbook result set --help' for usage.")
        // Found after the markbook is read, still before anything is written.
        let outOfRange = try await runBuiltMarkbook([
            "--sandbox", "result", "set", "1000001", "--student", "5004", "--task", "4003", "--result", "99",
        ])
        #expect(outOfRange.exitCode == 64)
        #expect(outOfRange.stderr.contains("Usage: markbook result set <key>"))
    }
}
