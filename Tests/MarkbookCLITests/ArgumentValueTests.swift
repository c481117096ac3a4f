import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@testable import MarkbookCLI

/// Argument values that are wrong whatever the server holds: exit 64, code `usage`, before any
/// request.
@Suite("markbook: bad argument values are usage errors found before any request")
struct ArgumentValueTests {
    /// Runs `arguments` against a transport that answers nothing, and checks nothing was sent.
    func refused(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async -> CommandResult {
        let transport = ScriptedTransport([])
        let result = await markbook(
            ["--base-url", "https://markbook.example.test/api/v1.5"] + arguments,
            variables: CLIAccount.variables
        ) {
            $0.transport = transport
            $0.columns = 1000  // one line per message, whatever the terminal
        }
        #expect(result.exitCode == 64, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(transport.requests.isEmpty, sourceLocation: sourceLocation)
        return result
    }

    @Test(
        "Keys are whole numbers above 0",
        arguments: [
            ["show", "0"], ["outcomes", "00"],
            ["result", "set", "1000001", "--student", "0", "--task", "4003", "--result", "1"],
            ["student", "delete", "1000001", "0"], ["class", "create", "0", "--name", "X"],
        ]
    )
    func keys(arguments: [String]) async {
        let result = await refused(arguments)
        #expect(result.stderr.contains("keys are whole numbers above 0"))
    }

    @Test(
        "A result that only looks numeric is refused with a clear message",
        arguments: ["1e3", "NaN", "inf", "0x10", "12,5", "+", "1.2.3", " - "]
    )
    func notPlainDecimal(value: String) async throws {
        let arguments = ["result", "set", "1000001", "--student", "5004", "--task", "4003", "--result", value]
        let result = await refused(arguments)
        #expect(result.stderr.contains("is not a plain decimal number such as 42 or 42.5."))
        #expect(result.stderr.contains("add --text"))
        #expect(result.stderr.contains("Usage: markbook result set"))
        if value.contains(",") { #expect(result.stderr.contains("Use a point for the decimals, e.g. 12.5.")) }
        let json = await refused(["--json"] + arguments)
        #expect(try json.errorReport().code == "usage")
    }

    @Test("A matching string under 2 characters is refused with the backup schedule usage line")
    func shortMatching() async {
        let result = await refused(["backup", "schedule", " x "])
        #expect(result.stderr.hasPrefix("Error: <matching> needs at least 2 characters, e.g. 10MAT; got 1."))
        #expect(result.stderr.contains("Usage: markbook backup schedule <matching>"))
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("--text stores free text; plain decimals and an empty result need no flag")
    func text() async throws {
        try await withSandbox { baseURL, module, _ in
            func run(_ arguments: [String]) async -> CommandResult {
                await markbook(["--base-url", baseURL] + arguments, variables: CLIAccount.variables)
            }
            let set = ["result", "set", "1000001", "--student", "5004", "--task", "4003", "--result"]
            let grade = await run(set + ["A+", "--text"])
            #expect(grade.exitCode == 0, "\(grade.stderr)")
            #expect(module.result(markbookKey: 1_000_001, studentKey: 5004, taskKey: 4003) == "A+")
            let negative = ["result", "set", "1000001", "--student", "5004", "--task", "4003", "--result=-0.5"]
            #expect(await run(negative + ["--allow-out-of-range"]).exitCode == 0)
            #expect(await run(set + ["12.75"]).exitCode == 0)
            #expect(await run(set + [""]).exitCode == 0)
            let outOfRange = await run(set + ["99", "--text"])
            #expect(outOfRange.exitCode == 64)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Hints name options the command has: result set has no --sid")
    func hintsNameRealOptions() async throws {
        let result = await markbook([
            "--sandbox", "result", "set", "1000001", "--student", "5999", "--task", "4003", "--result", "1",
        ])
        #expect(result.exitCode == 2)
        #expect(!result.stderr.contains("pass --sid"))
        #expect(
            result.stderr.contains(
                "restore them first with 'markbook student move 1000001 5999 --sid SID --class CLASS'"
            )
        )
        let move = await markbook(["--sandbox", "student", "move", "1000001", "5999", "--class", "3001"])
        #expect(move.stderr.contains("pass --sid"))
    }
}
