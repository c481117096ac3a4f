import CLISupport
import Foundation
import Testing

/// A few runs of the real `markbook` executable: what the OS and a shell see.
@Suite("The built markbook executable")
struct BinaryTests {
    @Test("markbook --sandbox list works as a process")
    func list() async throws {
        let result = try await BuiltExecutable.run("markbook", arguments: ["--sandbox", "list"])
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
        let result = try await BuiltExecutable.run("markbook", arguments: ["--sandbox", "show", "1000001"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("10MAT1 Mathematics (1000001) · 2024 · Year 10 Mathematics\n"))
        #expect(result.stdout.contains("5003  Chen, Will         100262  10MAT1-A  47.0    19  28.0    92  10.0\n"))
    }

    @Test("Credentials from the environment are never echoed, even with --verbose")
    func environmentCredentials() async throws {
        let secret = "env-Secret-Password-42"
        let result = try await BuiltExecutable.run(
            "markbook",
            arguments: ["--sandbox", "--verbose", "--json", "users"],
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
        #expect(try await BuiltExecutable.run("markbook", arguments: ["--sandbox", "show", "7"]).exitCode == 2)
        #expect(
            try await BuiltExecutable.run("markbook", arguments: ["--sandbox", "backup", "schedule", "x"]).exitCode
                == 64
        )
        let bad = try await BuiltExecutable.run("markbook", arguments: ["show"])
        #expect(bad.exitCode == 64)
        #expect(bad.stdout.isEmpty)
    }
}
