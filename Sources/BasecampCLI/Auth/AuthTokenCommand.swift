import ArgumentParser
import CLISupport
import Foundation
import HTTPCore

/// `basecamp auth token`: prints the access token for scripts, renewed first when it is about
/// to expire. The one place a secret is printed on purpose: stdout gets the token and nothing
/// else; notes, `--verbose` lines and errors on stderr never show it.
struct AuthTokenCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a valid access token (renewed first when it is about to expire), and nothing else.",
        discussion: """
            For a script that calls the API itself:
              curl -H "Authorization: Bearer $(basecamp auth token)" https://3.basecampapi.com/999999999/projects.json
            A stored sign-in's token is refreshed first when it expires within a minute, and the new \
            one saved; a token from --token or BASECAMP_TOKEN is printed as it is. Not signed in (or a \
            refresh the server refused) exits 3, with the error on stderr. Treat what it prints as the \
            password it is. For example, signed in or with BASECAMP_TOKEN set:
              basecamp auth token
            """
    )

    @ParentCommand var root: BasecampCommand

    func run(in context: CommandContext) async throws {
        // A given token is printed as it is: nothing is sent, so no User-Agent contact is needed.
        if let given = BasecampSession.givenToken(context: context, root: root) {
            context.printSecret(given)
            return
        }
        let session = try await BasecampSession.open(context: context, root: root)
        let token = try await session.withSignInHint { try await session.currentAccessToken() }
        context.printSecret(token)
    }
}
