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

    @Test("export, import and backup download document their formats, exit codes and examples")
    func bulkCommands() async {
        let root = await markbook(["--help"])
        #expect(root.stdout.contains("  export "))
        #expect(root.stdout.contains("  import "))
        #expect(root.stdout.contains("MARKBOOK_SANDBOX_FAIL_RESULTS_AFTER"))
        #expect(root.stdout.contains("11 no_backup"))
        let export = await markbook(["export", "--help"])
        #expect(export.stdout.contains("\n  markbook --sandbox export 1000001 --output 10MAT.csv\n"))
        #expect(export.stdout.contains("byte order mark"))
        let importing = await markbook(["import", "--help"])
        #expect(importing.stdout.contains("12 (import_conflict)"))
        #expect(importing.stdout.contains("\n  markbook --sandbox import 1000001 10MAT.csv --dry-run\n"))
        let download = await markbook(["backup", "download", "--help"])
        #expect(download.stdout.contains("75 (backup_pending)"))
        #expect(download.stdout.contains("11 (no_backup)"))
    }
}
