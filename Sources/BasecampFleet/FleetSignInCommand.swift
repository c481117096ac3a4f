import ArgumentParser
import Basecamp
import BasecampSandbox
import Foundation
import HTTPCore
import HTTPCorePostgres
import HTTPTypes

/// `basecamp-fleet signin`: signs in once through the sandbox's Launchpad (the authorization
/// code flow, approved at once), leaves the tokens where the workers find them (the shared store,
/// or a file each uncoordinated worker copies), and points a webhook at the receivers' balancer.
struct FleetSignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signin",
        abstract: "Signs the fleet in once and creates the webhook the receivers take."
    )

    /// The OAuth client id the sandbox registers for the fleet.
    static let clientID = "basecamp-fleet"
    /// Launchpad has no public clients.
    static let clientSecret = "basecamp-fleet-secret"

    @OptionGroup var fleet: FleetOptions

    func validate() throws {
        try fleet.requireSandbox()
    }

    func run() async throws {
        let oauth = fleet.oauth
        let request = try oauth.authorizationRequest()
        // The sandbox approves at once and redirects; the redirect carries the code.
        let approval = try await URLSessionTransport.shared.send(
            HTTPRequest(method: .get, url: request.url),
            body: nil,
            options: TransportOptions(timeout: .seconds(10))
        )
        guard let location = approval.response.headerFields[.location], let callback = URL(string: location) else {
            throw FleetReportError("the sandbox did not redirect the sign-in (status \(approval.response.status.code))")
        }
        let credentials = try await oauth.exchange(callback: callback, for: request)
        let database = try fleet.database(connections: 2)
        if let database {
            try await fleet.credentialStore(database).save(credentials)
        } else {
            try await FileCredentialStore(url: URL(fileURLWithPath: fleet.credentialsFile)).save(credentials)
        }
        let basecamp = try BasecampClient(
            auth: BearerTokenAuth(token: credentials.accessToken),
            userAgent: FleetOptions.userAgent,
            config: Self.apiConfiguration(fleet, database: database)
        )
        let balancer = fleet.sandboxURL.appending(path: String(FleetOptions.balancerPath.dropFirst()))
        _ = try await basecamp.forAccount(fleet.accountID).webhooks.create(
            bucketID: Int64(BasecampSandboxSeed.letoLaptopProjectID),
            CreateWebhookRequest(payloadURL: balancer.absoluteString, types: ["Todo"])
        )
        await database?.shutdown()
        announce("fleet signed in; webhook delivers to \(balancer.absoluteString)")
    }

    /// The settings of the client that creates the webhook. Its request counts against the
    /// account's limit like any worker's, so a coordinated fleet's sign-in takes a permit from
    /// the same budget: outside it, it would be the fleet's 51st request in the workers' first
    /// 10 s.
    static func apiConfiguration(_ fleet: FleetOptions, database: PostgresDatabase?) -> BasecampConfig {
        var config = BasecampConfig(baseURL: fleet.apiURL)
        config.rateLimiter = database.map(FleetClientParts.sharedLimiter)
        return config
    }
}
