import CLISupport

/// `markbook`: the process entry point hands over to CLISupport's runner, which parses, runs,
/// reports and exits.
@main
enum MarkbookMain {
    static func main() async {
        await CLIRunner.main(MarkbookTool.self)
    }
}
