import CLISupport
import CLISupportTesting
import Foundation
import Testing

@Suite("Display width")
struct DisplayWidthTests {
    @Test(
        "Latin is one column, CJK and emoji two, combining marks none",
        arguments: [
            ("abc", 3), ("東京", 4), ("한국어", 6), ("ｆｕｌｌ", 8), ("😀", 2), ("👍🏽", 2), ("👨‍👩‍👧", 2), ("🇦🇺", 2),
            ("e\u{301}", 1), ("Zoë", 3), ("\u{200B}", 0), ("❤️", 2), ("", 0),
        ]
    )
    func width(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    @Test("Truncation counts columns and ends in an ellipsis")
    func truncate() {
        #expect(DisplayWidth.truncate("東京タワー", toFit: 6) == "東京…")
        #expect(DisplayWidth.truncate("abcdef", toFit: 4) == "abc…")
        #expect(DisplayWidth.truncate("abc", toFit: 3) == "abc")
    }
}

@Suite("Tables fit the terminal")
struct TableFittingTests {
    @Test("Wide characters line up")
    func alignment() {
        var table = TextTable(columns: [.init("NAME"), .init("CITY")])
        table.append(["東京", "Tokyo"])
        table.append(["Zoë", "Paris"])
        table.append(["😀 fan", "Perth"])
        #expect(table.render() == "NAME    CITY\n東京    Tokyo\nZoë     Paris\n😀 fan  Perth")
    }

    @Test("The widest text column is cut with an ellipsis; numbers never are")
    func fit() {
        var table = TextTable(columns: [.init("ID", alignment: .right), .init("TITLE"), .init("BY")])
        table.append(["1234567", "A very long title that will not fit in a narrow terminal", "Ann"])
        table.append(["8", "Short", "Bob"])
        let rendered = table.render(width: 40)
        #expect(rendered.split(separator: "\n").allSatisfy { DisplayWidth.of($0) <= 40 })
        #expect(
            rendered == """
                     ID  TITLE                       BY
                1234567  A very long title that wi…  Ann
                      8  Short                       Bob
                """
        )
        #expect(table.render(width: 200) == table.render())
    }

    @Test("Several wide columns share the cut; none goes below its header or 8 columns")
    func shared() {
        var table = TextTable(columns: [.init("A"), .init("DESCRIPTION")])
        table.append([String(repeating: "a", count: 30), String(repeating: "d", count: 30)])
        let rendered = table.render(width: 41)
        let lines = rendered.split(separator: "\n")
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 41 })
        #expect(lines[1].hasPrefix(String(repeating: "a", count: 18) + "…"))
        // Too narrow for anything: each text column stops at 8, or its header's width.
        let tiny = table.render(width: 5)
        #expect(tiny.split(separator: "\n")[1] == "aaaaaaa…  dddddddddd…")
    }

    @Test("In a command, tables fit COLUMNS or the terminal, and are whole in a pipe")
    func inCommand() async {
        let piped = await CLIRunner.capture(TestTool.self, arguments: ["records", "--fields", "id,name,note"])
        #expect(piped.stdout.contains("line one line two"))
        let narrow = await CLIRunner.capture(
            TestTool.self,
            arguments: ["records", "--fields", "id,name,note"],
            variables: ["COLUMNS": "30"]
        )
        #expect(narrow.stdout.split(separator: "\n").allSatisfy { DisplayWidth.of($0) <= 30 })
        #expect(narrow.stdout.contains("…"))
        let terminal = await CLIRunner.capture(TestTool.self, arguments: ["records", "--fields", "id,name,note"]) {
            $0.standardOutputColumns = 30
        }
        #expect(terminal.stdout == narrow.stdout)
    }
}

@Suite("Help text")
struct HelpTextTests {
    @Test("The shared --base-url help names the tool's own variable")
    func baseURLVariable() async {
        let help = await CLIRunner.capture(TestTool.self, arguments: ["--help"]) { $0.columns = 200 }
        #expect(help.stdout.contains("The API's base URL (or set TESTTOOL_BASE_URL)."))
        #expect(!help.stdout.contains("<TOOL>"))
    }

    @Test("An example after environment settings or a pipe is an example too, kept whole")
    func examplesAfterSettingsAndPipes() {
        let examples = [
            "  MARKBOOK_SANDBOX_BACKUP=ready markbook --sandbox backup download --output backup.zip",
            "  cat token-response.json | basecamp auth login --with-token --redirect-uri http://127.0.0.1:8080/callback",
        ]
        for example in examples {
            #expect(HelpText.wrap(example, width: 40, commands: ["markbook", "basecamp"]) == example)
        }
        let prose = "  an indented note that mentions markbook but is not a command line at all"
        #expect(HelpText.wrap(prose, width: 40, commands: ["markbook"]).contains("\n"))
    }

    @Test("Prose and option descriptions wrap at the width, examples never do")
    func wrapping() async {
        let say = await CLIRunner.capture(TestTool.self, arguments: ["say", "--help"]) { $0.columns = 50 }
        let lines = say.stdout.split(separator: "\n")
        #expect(lines.contains("  testtool say --format csv --fields id,name,creator.name,tags,score"))
        #expect(lines.contains("Prints its words. This sentence is long enough to"))
        #expect(lines.filter { !$0.contains("testtool say --format") }.allSatisfy { DisplayWidth.of($0) <= 50 })

        let root = await CLIRunner.capture(TestTool.self, arguments: ["--help"]) { $0.columns = 60 }
        #expect(root.stdout.split(separator: "\n").allSatisfy { DisplayWidth.of($0) <= 60 })
        // A long option description continues under its own column.
        #expect(
            root.stdout.contains(
                "  --format <format>       How to print results: table (the\n                          default),"
            )
        )
    }
}

@Suite("Progress is cleared before anything else is printed")
struct ProgressClearingTests {
    /// Runs with stdout and stderr on one transcript, as on a terminal.
    func transcript(_ arguments: [String]) async -> (code: Int32, text: String) {
        let screen = CapturedOutput()
        let environment = CLIEnvironment(
            standardOutput: screen,
            standardError: screen,
            standardErrorIsTerminal: true
        )
        let code = await CLIRunner.run(TestTool.self, arguments: arguments, environment: environment)
        return (code, screen.text)
    }

    @Test("A walk that stops early (--limit) is cleared before the results")
    func stoppedEarly() async {
        let (code, text) = await transcript(["pages", "--stop-after", "1"])
        #expect(code == 0)
        #expect(text == "\r\u{1B}[2KFetching ListThings: page 1, 20 of 60 items…\r\u{1B}[2Kdone\n")
    }

    @Test("A walk that starts at --page 3 says page 3")
    func pinnedPage() async {
        let (_, text) = await transcript(["pages", "--from", "3"])
        #expect(text.contains("Fetching ListThings: page 3, 20 of 60 items…"))
        #expect(!text.contains("page 1"))
    }

    @Test("An error after progress is printed on a clean line")
    func error() async {
        let (code, text) = await transcript(["pages", "--stop-after", "1", "--fail-afterwards"])
        #expect(code == 2)
        #expect(text.hasSuffix("items…\r\u{1B}[2Kerror: Gone.\n"))
    }
}
