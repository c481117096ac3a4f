import APISandbox
import Basecamp
import BasecampSandbox
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPTypes
import PostgresTesting
import Testing

@testable import HTTPCorePostgres

/// Worker processes sharing one Basecamp sign-in through PostgreSQL, against the sandbox's
/// Launchpad, whose refresh tokens work once.
@Suite("Postgres: a fleet of processes shares one sign-in", PostgresTestServer.trait, .timeLimit(.minutes(2)))
struct FleetRefreshProcessTests {
    static let agent = "FleetRefreshProcessTests (tests@example.com)"

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("16 tasks in 4 processes find the token about to expire: exactly one refresh reaches the server")
    func sixteenTasksFourProcessesOneRefresh() async throws {
        let authorization = BasecampSandboxAuthorization(
            options: SandboxAuthorizationOptions(requiresIssuedTokens: true)
        )
        let configuration = SandboxConfiguration(modules: [BasecampSandboxModule(authorization: authorization)])
        try await Sandbox.withRunning(configuration: configuration) { sandbox in
            let oauth = OAuthClient(
                registration: OAuthClientRegistration(
                    clientID: "sandbox-app",
                    clientSecret: "sandbox-app-secret",
                    redirectURI: URL(string: "http://127.0.0.1:9/callback")
                ),
                server: BasecampOAuth.launchpad(at: sandbox.baseURL.appending(path: "launchpad")),
                network: OAuthNetwork(transport: URLSessionTransport(), userAgent: Self.agent)
            )
            let signedIn = try await Self.signIn(oauth)
            let identity = PostgresTestServer.uniqueKey("fleet")
            let url = try #require(PostgresTestServer.url)
            try await PostgresTestServer.withDatabase { database in
                let store = PostgresCredentialStore(database: database, integration: "basecamp", identity: identity)
                // Stored as expired, so every task refreshes first; a renewed token is then
                // good for long enough that whoever loads it uses it.
                var expired = signedIn
                expired.expiresAt = Date(timeIntervalSinceNow: -1)
                try await store.save(expired)
                let folder = try ScratchFolder("fleet")
                defer { folder.remove() }
                let arguments = [
                    url, oauth.registration.clientID,
                    sandbox.baseURL.appending(path: "launchpad/authorization/token").absoluteString,
                    sandbox.baseURL.appending(path: "basecamp/\(BasecampSandboxSeed.accountID)/projects.json")
                        .absoluteString,
                    folder.url.appending(path: "barrier").path, "4", "4",
                ]
                let variables = ["PROBE_SCHEMA": database.schema, "PROBE_IDENTITY": identity]
                let results = try await withThrowingTaskGroup(of: CommandResult.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            try await BuiltExecutable.run(
                                "OAuthRefreshProbe",
                                arguments: arguments,
                                variables: variables
                            )
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                for result in results {
                    #expect(result.exitCode == 0, "\(result.stdout) \(result.stderr)")
                    #expect(result.stdout == "ok 4\n")
                }
                #expect(authorization.refreshRequests == 1)
                let stored = try #require(await store.load())
                #expect(stored.accessToken != signedIn.accessToken)
                #expect(authorization.status(of: stored.accessToken) == .valid)
            }
        }
    }

    /// The browser's part of a Launchpad sign-in done by hand: the authorize page approves at
    /// once and redirects with a code, which is exchanged without a listener.
    @available(macOS 14, iOS 17, tvOS 17, *)
    static func signIn(_ oauth: OAuthClient) async throws -> TokenCredentials {
        let redirect = try #require(URL(string: "http://127.0.0.1:9/callback"))
        let request = try oauth.authorizationRequest(redirectURI: redirect)
        let authorize = try await URLSessionTransport().send(
            HTTPRequest(method: .get, url: request.url),
            body: nil,
            options: TransportOptions()
        )
        let location = try #require(authorize.response.headerFields[.location].flatMap(URL.init(string:)))
        return try await oauth.exchange(callback: location, for: request)
    }
}
