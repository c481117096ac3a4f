import CLISupport
import CLISupportTesting
import Foundation
import Testing

/// The built tools on a terminal narrower than ArgumentParser can draw help at.
@Suite("Help on a narrow terminal")
struct NarrowTerminalTests {
    @Test("--help at 20 columns prints the help and exits 0", arguments: ["basecamp", "markbook", "monash"])
    func narrowHelp(tool: String) async throws {
        let result = try await BuiltExecutable.run(tool, arguments: ["--help"], variables: ["COLUMNS": "20"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("OVERVIEW: "))
        #expect(result.stderr.isEmpty)
    }
}
