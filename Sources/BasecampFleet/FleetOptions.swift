import ArgumentParser
import Basecamp
import BasecampSandbox
import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCorePostgres

/// What every fleet process that talks to the sandbox or shares state is told.
struct FleetOptions: ParsableArguments {
    @Option(help: "The sandbox's address, e.g. http://127.0.0.1:8080 (not needed by a receiver).")
    var sandbox: String?

    @Option(help: "The PostgreSQL connection string the fleet shares (coordinated).")
    var database: String?

    @Flag(help: "Keep every part in this process: no shared store, limiter, cache or ledger.")
    var uncoordinated = false

    @Option(help: "Where the one sign-in is left for uncoordinated workers.")
    var credentialsFile = "fleet-credentials.json"

    @Option(help: "A name for this run, keeping its rows apart from other runs in the database.")
    var run = "fleet"

    func validate() throws {
        if let sandbox, URL(string: sandbox)?.host == nil { throw ValidationError("--sandbox must be a URL") }
        guard uncoordinated || database != nil else {
            throw ValidationError("give --database (coordinated) or --uncoordinated")
        }
    }

    /// The sandbox's origin.
    var sandboxURL: URL { sandbox.flatMap(URL.init(string:)) ?? URL(fileURLWithPath: "/") }

    /// Refuses a command line without the sandbox, for the processes that talk to it.
    func requireSandbox() throws {
        guard sandbox != nil else { throw ValidationError("--sandbox is required") }
    }
    /// The Basecamp API's base URL on the sandbox.
    var apiURL: URL { sandboxURL.appending(path: String(BasecampSandboxModule.defaultBasePath.dropFirst())) }
    /// The account every worker uses.
    var accountID: String { BasecampSandboxModule.defaultAccountID }

    /// The sign-in client: Launchpad as the sandbox plays it.
    var oauth: OAuthClient {
        OAuthClient(
            registration: OAuthClientRegistration(
                clientID: FleetSignInCommand.clientID,
                clientSecret: FleetSignInCommand.clientSecret,
                redirectURI: URL(string: "http://127.0.0.1:9/callback")
            ),
            server: BasecampOAuth.launchpad(at: sandboxURL.appending(path: "launchpad")),
            network: OAuthNetwork(userAgent: FleetOptions.userAgent)
        )
    }

    static let userAgent = "basecamp-fleet (fleet@example.com)"
    /// Where the sandbox's webhook deliveries go: the balancer in front of the receivers.
    static let balancerPath = "/fleet/webhooks"

    /// The shared database, started; `nil` when uncoordinated.
    func database(connections: Int) throws -> PostgresDatabase? {
        guard !uncoordinated, let database else { return nil }
        let shared = try PostgresDatabase(url: database, maximumConnections: connections)
        shared.start()
        return shared
    }

    /// The credential store the fleet shares.
    func credentialStore(_ database: PostgresDatabase) -> PostgresCredentialStore {
        PostgresCredentialStore(database: database, integration: "basecamp-fleet", identity: "\(run)/\(accountID)")
    }
}
