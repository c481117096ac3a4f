import ArgumentParser
import CLISupport
import Foundation
import HTTPCore

/// `basecamp doctor`: checks what a command needs before it runs (the config folder's
/// privacy, the stored sign-in and its renewal, this machine's clock, the `User-Agent`, the API
/// and its sign-in server), one line each with the fix for what fails.
struct DoctorCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract:
            "Check the sign-in, its files, the clock and the connection to Basecamp, with a fix for each problem.",
        discussion: """
            One line per check: ✔ holds, ✘ fails (with its fix), - does not apply here. It checks \
            that the config folder is private (0700) and the sign-in files too (0600), that a sign-in \
            is stored (for --profile), when its token expires, that it can be renewed (a test refresh, \
            whose new token is saved), that this machine's clock is within 60 seconds of the server's \
            Date header, that the User-Agent names a contact, and that the API and its sign-in \
            server (discovery) answer. Exits 0 when nothing fails and 1 (configuration) when any \
            check does; --json prints the checks as an array of {check, status, message, fix}. \
            For example, with BASECAMP_TOKEN set or after basecamp auth login:
              basecamp doctor
              basecamp doctor --json
            """
    )

    @ParentCommand var root: BasecampCommand

    func run(in context: CommandContext) async throws {
        let doctor = try await Doctor.start(context: context, root: root)
        let checks = await doctor.checks()
        if context.outputsJSON {
            try context.printJSON(checks)
        } else {
            for check in checks { context.print(check.line) }
        }
        let failed = checks.filter { $0.status == .fail }.count
        guard failed == 0 else {
            throw ConfigurationError(
                "\(failed) of \(checks.count) checks failed.",
                hint: "Apply the fix each ✘ line names, then run 'basecamp doctor' again."
            )
        }
    }
}
