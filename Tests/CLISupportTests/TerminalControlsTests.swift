import CLISupportTesting
import Foundation
import Testing

@testable import CLISupport

@Suite("Control characters in output")
struct TerminalControlsTests {
    @Test(
        "C0 controls, DEL and C1 controls are shown in caret notation; line feeds, tabs and CRLF stay",
        arguments: [
            ("plain 日本 👩‍💻", "plain 日本 👩‍💻"),
            ("a\tb\nc\r\nd", "a\tb\nc\r\nd"),
            ("\u{1B}[31mred\u{1B}[0m", "^[[31mred^[[0m"),
            ("\u{1B}]52;c;aGk=\u{07}", "^[]52;c;aGk=^G"),
            ("shown\rhidden", "shown^Mhidden"),
            ("\u{9B}2J\u{7F}\u{00}", "^[[2J^?^@"),
            ("café \u{C2}\u{A0}", "café \u{C2}\u{A0}"),
        ]
    )
    func shown(text: String, expected: String) {
        #expect(TerminalControls.shown(text) == expected)
    }

    @Test("A command's output shows them on stdout and stderr; JSON keeps them as escapes")
    func throughTheRunner() async throws {
        let word = "hi\u{1B}[2J"
        let table = await CLIRunner.capture(TestTool.self, arguments: ["say", word])
        #expect(table.exitCode == 0)
        #expect(table.stdout == "hi^[[2J\n")
        let json = await CLIRunner.capture(TestTool.self, arguments: ["say", "--json", word])
        #expect(try JSONDecoder().decode([String].self, from: Data(json.stdout.utf8)) == [word])
        let failed = await CLIRunner.capture(TestTool.self, arguments: ["say", "--format", "nope\u{1B}[2J"])
        #expect(failed.exitCode == 64)
        #expect(failed.stderr.contains("nope^[[2J"))
        #expect(!failed.stderr.contains("\u{1B}"))
    }
}
