import CLISupport

/// `basecamp`: the process entry point hands over to CLISupport's runner, which parses, runs,
/// reports and exits.
@main
enum BasecampMain {
    static func main() async {
        await CLIRunner.main(BasecampCommand.self)
    }
}
