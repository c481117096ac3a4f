import ArgumentParser
import CLISupport
import Foundation
import HTTPCore

/// `basecamp auth`: sign in, see who is signed in, sign out.
struct AuthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth",
        abstract: "Sign in to Basecamp, see who is signed in, sign out.",
        subcommands: [AuthLoginCommand.self, AuthStatusCommand.self, AuthLogoutCommand.self]
    )
}

/// `basecamp auth status`: who is signed in, which accounts, when the token expires.
struct AuthStatusCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show who is signed in, which accounts, and when the token expires (never the token)."
    )

    @ParentCommand var root: BasecampCommand

    func run(in context: CommandContext) async throws {
        let files = try SignInFiles(context: context)
        guard let login = try files.loadLogin() else { throw BasecampSession.notSignedIn(context) }
        let credentials = try await SharedCredentials.load(files.credentialStore(timeSource: context.environment.clock))
        guard credentials != nil else { throw BasecampSession.notSignedIn(context) }
        try AuthStatus.print(login, credentials, files: files, in: context)
    }
}

/// `basecamp auth logout`: forgets the stored sign-in.
struct AuthLogoutCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Forget the stored sign-in on this machine.",
        discussion: """
            The tokens are deleted here; to cut off the integration's access everywhere, revoke it \
            at https://launchpad.37signals.com.
            """
    )

    @ParentCommand var root: BasecampCommand

    func run(in context: CommandContext) async throws {
        let files = try SignInFiles(context: context)
        let store = files.credentialStore(timeSource: context.environment.clock)
        // Under the refresh lock, so a refresh in another process cannot write the tokens back.
        let removed = try await store.withRefreshLock { try await files.remove() }
        context.print(removed ? "Signed out: removed the sign-in from \(files.directory.path)." : "Not signed in.")
    }
}
