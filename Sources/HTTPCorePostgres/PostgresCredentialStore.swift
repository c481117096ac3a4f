import Foundation
public import HTTPCore
import PostgresNIO

/// Credentials a fleet of workers shares: one row per integration and identity in PostgreSQL.
///
/// Give it to ``RefreshingTokenAuth`` (or OAuth's refreshing strategy) in every worker. When
/// the access token expires, one worker refreshes while the others wait on
/// ``withRefreshLock(_:)`` (a transaction-scoped advisory lock, so it holds across machines and
/// is released by the server if the worker dies); the others then read the row again and use
/// the rotated token instead of spending the old refresh token. A refresh the server refuses
/// removes the row only if it still holds the refused tokens
/// (``remove(ifStillMatching:)``), so a worker holding a stale copy cannot erase a sign-in
/// another worker renewed.
///
/// ```swift
/// let store = PostgresCredentialStore(database: database, integration: "basecamp", identity: "12345")
/// let auth = RefreshingTokenAuth(refresh: RefreshEndpoint(path: "oauth/token"), store: store)
/// ```
///
/// Tokens are stored as given, never logged and never quoted in errors: protect the database
/// (its users, backups and replicas) as you would the tokens themselves.
public struct PostgresCredentialStore: CredentialStore, CustomStringConvertible {
    /// The database.
    public let database: PostgresDatabase
    /// What the credentials are for (`basecamp`, `markbook`): one app may keep several.
    public let integration: String
    /// Whose credentials they are: the signed-in identity or account.
    public let identity: String
    /// How long a refresh waits for another worker's refresh before it fails with a `network`
    /// error (the credentials are kept).
    public var lockTimeout: Duration

    /// A store for one integration and identity.
    ///
    /// - Parameters:
    ///   - database: The shared database.
    ///   - integration: What the credentials are for.
    ///   - identity: Whose credentials they are.
    ///   - lockTimeout: The longest a refresh waits for another worker's (60 s).
    public init(
        database: PostgresDatabase,
        integration: String,
        identity: String,
        lockTimeout: Duration = .seconds(60)
    ) {
        self.database = database
        self.integration = integration
        self.identity = identity
        self.lockTimeout = lockTimeout
    }

    /// The store, its integration and identity; never a token.
    public var description: String {
        "PostgresCredentialStore(\(integration)/\(identity) in \(database))"
    }

    /// The stored credentials; `nil` when there are none or the database cannot be reached
    /// (the worker then asks for a sign-in, as with a missing file).
    public func load() async -> TokenCredentials? {
        try? await loadOrThrow()
    }

    /// The stored credentials, or `nil` when there are none.
    ///
    /// - Throws: ``APIError/network(_:)`` when the database cannot be reached.
    public func loadOrThrow() async throws -> TokenCredentials? {
        try await database.prepare()
        return try await database.on(RefreshLock.connection(for: lockName), "load the credentials") {
            [database, integration, identity] connection in
            let rows = try await connection.query(
                """
                SELECT access_token, refresh_token, expires_at, token_type, scope, resource
                FROM \(unescaped: database.schema).credentials
                WHERE integration = \(integration) AND identity = \(identity)
                """,
                logger: PostgresDatabase.quiet
            )
            for try await row in rows.decode((String, String?, Date?, String?, String?, String?).self) {
                return TokenCredentials(
                    accessToken: row.0,
                    refreshToken: row.1,
                    expiresAt: row.2,
                    tokenType: row.3,
                    scope: row.4,
                    resource: row.5
                )
            }
            return nil
        }
    }

    /// Stores `credentials`, replacing what was stored.
    ///
    /// - Throws: ``APIError/network(_:)`` when the database cannot be reached.
    public func save(_ credentials: TokenCredentials) async throws {
        try await database.prepare()
        try await database.on(RefreshLock.connection(for: lockName), "save the credentials") {
            [database, integration, identity] connection in
            try await connection.run(
                """
                INSERT INTO \(unescaped: database.schema).credentials
                    (integration, identity, access_token, refresh_token, expires_at, token_type, scope, resource)
                VALUES (\(integration), \(identity), \(credentials.accessToken), \(credentials.refreshToken),
                    \(credentials.expiresAt), \(credentials.tokenType), \(credentials.scope), \(credentials.resource))
                ON CONFLICT (integration, identity) DO UPDATE SET
                    access_token = excluded.access_token, refresh_token = excluded.refresh_token,
                    expires_at = excluded.expires_at, token_type = excluded.token_type,
                    scope = excluded.scope, resource = excluded.resource, updated_at = now()
                """,
                logger: PostgresDatabase.quiet
            )
        }
        RefreshLock.noteSaved(credentials, for: lockName)
    }

    /// Deletes the stored credentials; none stored is not an error.
    ///
    /// - Throws: ``APIError/network(_:)`` when the database cannot be reached.
    public func remove() async throws {
        try await database.prepare()
        try await database.on(RefreshLock.connection(for: lockName), "remove the credentials") {
            [database, integration, identity] connection in
            try await connection.run(
                """
                DELETE FROM \(unescaped: database.schema).credentials
                WHERE integration = \(integration) AND identity = \(identity)
                """,
                logger: PostgresDatabase.quiet
            )
        }
        RefreshLock.noteSaved(nil, for: lockName)
    }

    /// Deletes the stored credentials in one statement if they still hold the access and
    /// refresh tokens of `credentials`.
    ///
    /// - Returns: Whether a row was deleted.
    /// - Throws: ``APIError/network(_:)`` when the database cannot be reached.
    @discardableResult
    public func remove(ifStillMatching credentials: TokenCredentials) async throws -> Bool {
        try await database.prepare()
        return try await database.on(RefreshLock.connection(for: lockName), "remove the credentials") {
            [database, integration, identity] connection in
            let rows = try await connection.query(
                """
                DELETE FROM \(unescaped: database.schema).credentials
                WHERE integration = \(integration) AND identity = \(identity)
                    AND access_token = \(credentials.accessToken)
                    AND refresh_token IS NOT DISTINCT FROM \(credentials.refreshToken)
                RETURNING 1
                """,
                logger: PostgresDatabase.quiet
            )
            var deleted = false
            for try await _ in rows { deleted = true }
            if deleted { RefreshLock.noteSaved(nil, for: lockName) }
            return deleted
        }
    }

    /// The advisory lock's name: one per schema, integration and identity.
    var lockName: String { "httpcore-credentials/\(database.schema)/\(integration)/\(identity)" }
}
