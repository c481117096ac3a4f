import ArgumentParser
import CLISupport
import Foundation
import HTTPCore

/// `basecamp auth`: sign in, see who is signed in, print the token, sign out.
struct AuthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth",
        abstract: "Sign in to Basecamp, see who is signed in, print the token, sign out.",
        subcommands: [AuthLoginCommand.self, AuthStatusCommand.self, AuthTokenCommand.self, AuthLogoutCommand.self]
    )
}

/// `basecamp auth status`: who is signed in, which accounts, when the token expires.
struct AuthStatusCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show who is signed in, which accounts, and when the token expires (never the token).",
        discussion: """
            With --all, one line for each profile kept on this machine (see --profile), the one in use \
            marked *; with --json, an array of what auth status prints for each.
            """
    )

    @ParentCommand var root: BasecampCommand

    @Flag(help: "List the sign-in of every profile kept on this machine.")
    var all = false

    func run(in context: CommandContext) async throws {
        let files = try signInFiles(context)
        if all {
            try await AuthStatus.printAll(files: files, in: context)
            return
        }
        guard let login = try files.loadLogin() else {
            throw BasecampSession.notSignedIn(context, profile: files.profile)
        }
        let credentials = try await SharedCredentials.load(files.credentialStore(timeSource: context.environment.clock))
        guard credentials != nil else { throw BasecampSession.notSignedIn(context, profile: files.profile) }
        try AuthStatus.print(login, credentials, files: files, in: context)
    }
}

/// `basecamp auth logout`: forgets the stored sign-in of one profile.
struct AuthLogoutCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Forget the stored sign-in on this machine (of one profile, with --profile).",
        discussion: """
            The tokens are deleted here; to cut off the integration's access everywhere, revoke it \
            at https://launchpad.37signals.com. Other profiles are left as they are.
            """
    )

    @ParentCommand var root: BasecampCommand

    func run(in context: CommandContext) async throws {
        let files = try signInFiles(context)
        let store = files.credentialStore(timeSource: context.environment.clock)
        // Under the refresh lock, so a refresh in another process cannot write the tokens back.
        let removed = try await store.withRefreshLock { try await files.remove() }
        let profile = files.profile.isDefault ? "" : " of the profile \(files.profile.name)"
        let outcome = SignedOut(removed: removed, profile: files.profile.name, directory: files.directory.path)
        try context.printRecord(outcome) {
            if removed {
                context.print("Signed out: removed the sign-in\(profile) from \(files.directory.path).")
            } else {
                let name = files.profile.name
                context.print(files.profile.isDefault ? "Not signed in." : "No sign-in kept for the profile \(name).")
            }
        }
    }

    /// What `--json` (or `--format`) prints: whether a sign-in was removed, and from where.
    private struct SignedOut: Encodable {
        var removed: Bool
        var profile: String
        var directory: String
    }
}
