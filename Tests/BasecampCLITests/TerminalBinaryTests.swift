#if os(Linux)
import CLISupport
import CLISupportTesting
import Foundation
import Testing

/// `basecamp` on a real pseudo-terminal (util-linux `script`), 60 columns wide: the table fits the
/// terminal's own size, and the progress line is erased before the table is drawn.
@Suite("The built basecamp executable on a terminal")
struct TerminalBinaryTests {
    static let script = "/usr/bin/script"

    /// What the terminal showed: the command's stdout and stderr as one transcript.
    static func onTerminal(_ arguments: String) async throws -> String {
        let basecamp = try BuiltExecutable.url(named: "basecamp").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = ["-qec", "stty cols 60 rows 40; \(basecamp) \(arguments)", "/dev/null"]
        process.environment = ProcessInfo.processInfo.environment.filter {
            BuiltExecutable.inheritedVariables.contains($0.key)
        }
        process.standardInput = FileHandle.nullDevice
        return try await process.runToEnd().stdout
    }

    @Test(
        "A table fits the terminal's width; progress is drawn, then erased before the table",
        .enabled(if: FileManager.default.isExecutableFile(atPath: script))
    )
    func terminal() async throws {
        let transcript = try await Self.onTerminal("--sandbox todos list --todolist 1069479338")
        #expect(transcript.contains("Fetching ListTodos: page 3, 120 of 120 items…"))
        let erase = "\r\u{1B}[2K"
        let afterProgress = try #require(transcript.components(separatedBy: erase).last)
        #expect(afterProgress.hasPrefix("        ID  "))
        // The terminal ends lines with CR LF, one Character in Swift.
        let lines = afterProgress.split(whereSeparator: \.isNewline)
        #expect(lines.count > 100)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 60 }, "\(lines.prefix(3))")
        #expect(lines.contains { $0.contains("…") })
    }
}
#endif
