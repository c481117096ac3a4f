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

    @Test(
        "JSON output and a --json error stay JSON that parses back to the same text, whatever controls it holds",
        arguments: ["x\u{9C}y", "a\u{9C}nb", "del\u{7F}", "c1 \u{85}\u{9B}2J", "nbsp\u{A0}©"]
    )
    func controlsInJSON(word: String) async throws {
        for format in ["json", "jsonl"] {
            let result = await CLIRunner.capture(TestTool.self, arguments: ["say", "--format", format, word])
            #expect(result.exitCode == 0)
            #expect(!result.stdout.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) })
            // `json` prints the words as an array; `jsonl` prints each as a line of its own.
            let parsed =
                format == "json"
                ? try JSONDecoder().decode([String].self, from: Data(result.stdout.utf8))
                : [try JSONDecoder().decode(String.self, from: Data(result.stdout.utf8))]
            #expect(parsed == [word], "\(format): \(result.stdout)")
        }
        let failed = await CLIRunner.capture(TestTool.self, arguments: ["--json", "fail", "--hint", word])
        #expect(try failed.errorReport().hint == word, "\(failed.stderr)")
    }
}
