import CLISupport

/// `monash`: the process entry point hands over to CLISupport's runner, which parses, runs,
/// reports and exits.
@main
enum MonashMain {
    static func main() async {
        await CLIRunner.main(Monash.self)
    }
}
