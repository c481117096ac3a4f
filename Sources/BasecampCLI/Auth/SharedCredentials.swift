import Basecamp
import Foundation
import HTTPCore
import HTTPCorePostgres

/// `BASECAMP_CREDENTIALS_URL=postgres://…`: the sign-in's tokens kept in PostgreSQL instead of
/// `credentials.json`, so scheduled jobs on several machines share one sign-in and refresh it
/// once between them (the refresh lock holds across machines), and share each account's rate
/// budget. `login.json` stays a file on each machine; copy it there after signing in once.
struct SharedCredentials: Sendable {
    /// The variable that turns it on.
    static let variable = "BASECAMP_CREDENTIALS_URL"

    /// The connection string.
    let url: String
    /// The row's integration: sandbox sign-ins are kept apart from real ones.
    let integration: String
    /// The row's identity: the profile, so profiles stay apart in the shared store too.
    var identity: String

    /// The shared location `variables` name for `profile`; `nil` when the variable is unset or
    /// empty.
    init?(variables: [String: String], sandbox: Bool, profile: String) {
        guard let url = variables[Self.variable], !url.isEmpty else { return nil }
        self.url = url
        self.integration = sandbox ? "basecamp-sandbox" : "basecamp"
        self.identity = profile
    }

    /// The store; one that refuses every use, with the reason, when the string is not usable.
    func store() -> any CredentialStore {
        do {
            return PostgresCredentialStore(database: try database(), integration: integration, identity: identity)
        } catch {
            return UnusableCredentialStore(error: error as? APIError ?? .usage("\(Self.variable) is not usable."))
        }
    }

    /// Basecamp's rate limit with each account's budget kept in the database, so every
    /// process using it stays under the limit together. Permits are leased one at a time: a
    /// command's process lives too briefly to spend a batch, and unspent permits would count
    /// against the account until the window ended.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` when the connection string is not usable.
    func rateLimiter() throws -> any RateLimiter {
        PostgresRateLimiter(database: try database(), limit: .basecamp, batchSize: 1)
    }

    /// One pool per connection string for the process, running from first use until the
    /// process ends (a command's connections close with it).
    private func database() throws -> PostgresDatabase {
        try Self.databases.withLock { databases in
            if let database = databases[url] { return database }
            let database = try PostgresDatabase(url: url, maximumConnections: 2)
            database.start()
            databases[url] = database
            return database
        }
    }

    private static let databases = Locked<[String: PostgresDatabase]>([:])

    /// The stored credentials; a database that cannot be reached is its error (exit 6), not
    /// "not signed in".
    static func load(_ store: any CredentialStore) async throws -> TokenCredentials? {
        switch store {
        case let shared as PostgresCredentialStore: return try await shared.loadOrThrow()
        case let unusable as UnusableCredentialStore: throw unusable.error
        default: return await store.load()
        }
    }
}

/// The store for a `BASECAMP_CREDENTIALS_URL` that cannot be used: nothing is stored, and
/// every change fails with the reason.
struct UnusableCredentialStore: CredentialStore {
    let error: APIError

    func load() async -> TokenCredentials? { nil }
    func save(_ credentials: TokenCredentials) async throws { throw error }
    func remove() async throws { throw error }
    func withRefreshLock<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
        throw error
    }
}
