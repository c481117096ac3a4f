import CLISupport
import Testing

@testable import MarkbookCLI

@Suite("markbook --help")
struct HelpTests {
    @Test("No command's help is wrapped by hand")
    func noHandWrapping() {
        for (path, command) in HelpText.commands(of: MarkbookTool.self) {
            #expect(HelpText.handWrappedLines(in: command.configuration.discussion).isEmpty, "\(path)")
        }
    }

    @Test("The root names MARKBOOK_BASE_URL and MARKBOOK_SANDBOX_STATE; examples are whole at 40 columns")
    func root() async {
        let help = await markbook(["--help"]) { $0.columns = 40 }
        #expect(help.stdout.contains("MARKBOOK_SANDBOX_STATE"))
        #expect(help.stdout.contains("MARKBOOK_BASE_URL)."))
        #expect(help.stdout.contains("\n  markbook --sandbox list --format csv\n"))
        #expect(!help.stdout.contains("<TOOL>"))
    }
}
