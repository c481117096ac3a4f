import ArgumentParser
import Basecamp
import CLISupport
import Foundation
import HTTPCore

/// `basecamp accounts`: the Basecamp accounts the token reaches, read from Launchpad's
/// `authorization.json`; refreshes the stored list, so a single account becomes the default.
struct AccountsCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "List the Basecamp accounts you can reach; with only one, --account is optional."
    )

    @ParentCommand var root: BasecampCommand

    /// One account as printed.
    struct Row: Encodable {
        var id: Int
        var name: String
        var isDefault: Bool
        var href: String?

        enum CodingKeys: String, CodingKey {
            case id, name, href
            case isDefault = "default"
        }
    }

    func run(in context: CommandContext) async throws {
        let session = try await BasecampSession.open(context: context, root: root)
        // The Launchpad `auth login` would use: never the real one for a token meant for a local
        // sandbox, which would send that token off the machine.
        var launchpad = AuthLoginCommand.launchpadURL(context, apiBaseURL: session.connection.configuration.baseURL)
        if case .storedSignIn(let login, _) = session.source, !context.usesSandbox,
            context.toolVariable("LAUNCHPAD_URL").flatMap(URL.init(string:)) == nil
        {
            launchpad = login.launchpadURL
        }
        let client = try session.client(global: global)
        var accounts = try await session.withSignInHint { try await client.accounts(launchpad: launchpad) }

        if case .storedSignIn(var login, let resource) = session.source {
            // A token bound to one account reaches that one alone, as `auth login` stored it.
            login.accounts = StoredLogin.accounts(
                accounts.map { StoredLogin.Account(id: $0.id, name: $0.name) },
                boundTo: resource
            )
            accounts = accounts.filter { account in login.accounts.contains { $0.id == account.id } }
            try signInFiles(context).saveLogin(login)
        }
        let chosen = root.account ?? context.toolVariable("ACCOUNT_ID")
        let rows = accounts.map { account in
            Row(
                id: account.id,
                name: account.name,
                isDefault: chosen.map { $0 == String(account.id) } ?? (accounts.count == 1),
                href: account.href?.absoluteString
            )
        }
        try context.printList(rows) {
            var table = TextTable(columns: [.init("ID", alignment: .right), .init("NAME"), .init("DEFAULT")])
            table.rows = rows.map { [String($0.id), $0.name, $0.isDefault ? "yes" : ""] }
            context.print(table)
            if accounts.count > 1, chosen == nil {
                context.note("Several accounts: pass --account ID or set BASECAMP_ACCOUNT_ID to choose one.")
            } else if accounts.isEmpty {
                context.note("This sign-in reaches no Basecamp account.")
            }
        }
    }
}
