import CLISupport
import Testing

@testable import BasecampCLI

@Suite("basecamp --help")
struct HelpTests {
    @Test("No command's help is wrapped by hand")
    func noHandWrapping() {
        let commands = HelpText.commands(of: BasecampCommand.self)
        #expect(commands.count > 250)
        for (path, command) in commands {
            #expect(HelpText.handWrappedLines(in: command.configuration.discussion).isEmpty, "\(path)")
        }
    }

    @Test("The root names the tool's variables, the state file among them, and the formats")
    func root() async {
        let help = await basecamp(["--help"]) { $0.columns = 200 }
        #expect(help.stdout.contains("The API's base URL (or set BASECAMP_BASE_URL)."))
        #expect(help.stdout.contains("BASECAMP_SANDBOX_STATE"))
        #expect(help.stdout.contains("--format <format>"))
        #expect(help.stdout.contains("--fields <a,b,c>"))
        #expect(!help.stdout.contains("<TOOL>"))
    }
}
