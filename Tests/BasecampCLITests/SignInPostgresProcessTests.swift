import APISandbox
import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCorePostgres
import PostgresTesting
import Testing

/// `BASECAMP_CREDENTIALS_URL`: the built `basecamp` on two "machines" (two config folders)
/// sharing one sign-in's tokens through PostgreSQL. Needs the server `Scripts/postgres.sh start`
/// prints, as `HTTPCORE_POSTGRES_URL`; `.ci/run` sets it.
@Suite(
    "Signing in with the built basecamp, tokens in PostgreSQL",
    PostgresTestServer.trait
)
struct SignInPostgresProcessTests {
    @Test("two machines, one sign-in in PostgreSQL: one refresh between them; a logout on one signs both out")
    @available(macOS 14, iOS 17, tvOS 17, *)
    func twoMachinesShareOneSignIn() async throws {
        let url = try #require(PostgresTestServer.url)
        let options = SandboxAuthorizationOptions(requiresIssuedTokens: true)
        try await SignInProcessTests.withAuthorizationServer(options) { authorization, base, first in
            let shared = ["BASECAMP_CREDENTIALS_URL": url]
            let firstMachine = base.merging(shared) { $1 }
            let login = try await browserSignIn(["auth", "login", "--no-browser"], variables: firstMachine)
            #expect(login.exitCode == 0, "\(login.stderr)")
            #expect(!FileManager.default.fileExists(atPath: first.credentials.path))

            // The second machine has the sign-in's description, not its tokens.
            let second = SignInFolder()
            defer { second.remove() }
            try FileManager.default.createDirectory(at: second.url, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: first.url.appending(path: "login.json"),
                to: second.url.appending(path: "login.json")
            )
            let secondMachine = firstMachine.merging(second.variables) { $1 }

            // Expired on the clients' side only: one refresh serves both.
            // A minute for a connection: the whole suite shares two cores with this test.
            let database = try PostgresDatabase(url: url, connectTimeout: .seconds(60))
            try await database.withRunning { database in
                let store = PostgresCredentialStore(database: database, integration: "basecamp", identity: "default")
                var stored = try #require(try await store.loadOrThrow())
                stored.expiresAt = Date().addingTimeInterval(-60)
                try await store.save(stored)
            }
            async let one = runBuiltBasecamp(["projects", "list"], variables: firstMachine)
            async let two = runBuiltBasecamp(["projects", "list"], variables: secondMachine)
            for result in try await [one, two] {
                #expect(result.exitCode == 0, "\(result.stderr)")
                #expect(result.stdout.contains("The Leto Laptop"))
            }
            #expect(authorization.refreshRequests == 1)

            let status = try await runBuiltBasecamp(["--json", "auth", "status"], variables: secondMachine)
            #expect(status.stdout.contains(#""credentialsFile" : "PostgreSQL (BASECAMP_CREDENTIALS_URL)""#))
            #expect(!status.stdout.contains(url))
            // --all reads each profile's tokens where they are kept too.
            let all = try await runBuiltBasecamp(["--json", "auth", "status", "--all"], variables: secondMachine)
            let profiles = try all.json([JSONValue].self)
            #expect(profiles.first?["credentialsFile"] == "PostgreSQL (BASECAMP_CREDENTIALS_URL)")
            #expect(profiles.first?["expired"] == false)

            let logout = try await runBuiltBasecamp(["auth", "logout"], variables: secondMachine)
            #expect(logout.exitCode == 0, "\(logout.stderr)")
            let after = try await runBuiltBasecamp(["projects", "list"], variables: firstMachine)
            #expect(after.exitCode == 3)
        }
    }

    @Test("an unusable BASECAMP_CREDENTIALS_URL is a usage error that never shows it")
    func unusableURL() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let variables = folder.variables.merging(["BASECAMP_CREDENTIALS_URL": "mysql://u:pw-not-shown@h/db"]) { $1 }
        let logout = try await runBuiltBasecamp(["auth", "logout"], variables: variables)
        #expect(logout.exitCode == 64)
        #expect(logout.stderr.contains("connection string is not usable"))
        #expect(!logout.stderr.contains("pw-not-shown") && !logout.stdout.contains("pw-not-shown"))
    }
}
