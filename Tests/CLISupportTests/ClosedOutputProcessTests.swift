import CLISupport
import CLISupportTesting
import Foundation
import Testing

/// The built tools with stdout on a closed pipe (`tool | head` after `head` exited) and on
/// `/dev/full`: never a trap, in any command or output mode. One process at a time, so twenty
/// tools starting their sandboxes at once do not starve the rest of the test run.
@Suite("The built tools with a stdout that cannot be written", .serialized)
struct ClosedOutputProcessTests {
    struct ToolRun: Sendable, CustomTestStringConvertible {
        var tool: String
        var arguments: [String]

        init(_ tool: String, _ arguments: [String]) {
            self.tool = tool
            self.arguments = arguments
        }

        var testDescription: String { ([tool] + arguments).joined(separator: " ") }
    }

    static let runs = [
        ToolRun("basecamp", ["--sandbox", "--json", "todos", "list", "--todolist", "1069479338"]),
        ToolRun("basecamp", ["--sandbox", "todos", "list", "--todolist", "1069479338"]),
        ToolRun("basecamp", ["--sandbox", "api", "GetProject", "--param", "projectId=2085958504"]),
        ToolRun("basecamp", ["todos", "list", "--help"]),
        ToolRun("markbook", ["--sandbox", "show", "1000001"]),
        ToolRun("markbook", ["--sandbox", "--json", "list"]),
        ToolRun("markbook", ["--help"]),
        ToolRun("monash", ["--sandbox", "parking"]),
        ToolRun("monash", ["--sandbox", "--json", "timetable"]),
        ToolRun("monash", ["--version"]),
    ]

    @Test("A closed pipe ends the tool quietly with 141", arguments: runs)
    func closedPipe(_ run: ToolRun) async throws {
        let result = try await BuiltExecutable.run(run.tool, arguments: run.arguments, standardOutput: .closedPipe)
        #expect(result.exitCode == 141, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
    }

    @Test(
        "A full disk is one line on stderr and exit 1",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")),
        arguments: runs
    )
    func fullDisk(_ run: ToolRun) async throws {
        let result = try await BuiltExecutable.run(
            run.tool,
            arguments: run.arguments,
            standardOutput: .file("/dev/full")
        )
        #expect(result.exitCode == 1, "\(result.stderr)")
        if run.arguments.contains("--json") {
            #expect(try result.errorReport().code == "output_failed")
            #expect(result.stderr.split(separator: "\n").count == 1)
        } else {
            #expect(result.stderr == "error: Cannot write the results to standard output: No space left on device.\n")
        }
    }

    @Test("An error still reaches stderr with its exit code when stdout is closed")
    func errorWithClosedStdout() async throws {
        let result = try await BuiltExecutable.run(
            "markbook",
            arguments: ["--sandbox", "show", "7"],
            standardOutput: .closedPipe
        )
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("error: "))
    }
}
