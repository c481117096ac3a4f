import Foundation
import HTTPCore
import PostgresTesting
import Testing

@testable import HTTPCorePostgres

/// The test server's databases: pools on ``PostgresTestServer`` (`PostgresTesting`) with the
/// tests' timeout, in the shared schema or one of their own.
extension PostgresTestServer {
    /// How long a test's pool waits for a connection: long, because a whole suite on two cores
    /// can keep a loopback connection waiting for seconds, and these tests are not about that.
    static let connectTimeout: Duration = .seconds(60)

    /// The shared test schema; tests keep apart by their own keys.
    static let sharedSchema = "httpcore_test"

    /// The isolation levels a server may be set to start transactions at
    /// (`default_transaction_isolation`); the library must work under each.
    static let isolationLevels = ["read committed", "repeatable read"]

    /// A pool (not yet running) on the test server, or at `server` (another user's address), in
    /// `schema`, with the tests' ``connectTimeout``; `isolation` sets the connections' default
    /// transaction isolation, as a server's or role's setting would.
    static func database(
        at server: String? = nil,
        schema: String = sharedSchema,
        maximumConnections: Int = 4,
        isolation: String? = nil
    ) throws -> PostgresDatabase {
        let url = try #require(server ?? url, "HTTPCORE_POSTGRES_URL is not set")
        var configuration = try PostgresDatabase.configuration(url: url)
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = connectTimeout
        if let isolation {
            configuration.options.additionalStartupParameters = [("default_transaction_isolation", isolation)]
        }
        return try PostgresDatabase(configuration: configuration, schema: schema)
    }

    /// Runs `body` with a running database on the test server in `schema`.
    static func withDatabase(
        schema: String = sharedSchema,
        maximumConnections: Int = 4,
        _ body: (PostgresDatabase) async throws -> Void
    ) async throws {
        let database = try database(schema: schema, maximumConnections: maximumConnections)
        try await database.withRunning { database in try await body(database) }
    }

    /// Runs `body` with `count` databases on the test server, as `count` processes would
    /// have: each its own pool.
    static func withDatabases(
        _ count: Int,
        maximumConnections: Int = 4,
        isolation: String? = nil,
        _ body: ([PostgresDatabase]) async throws -> Void
    ) async throws {
        let databases = try (0..<count).map { _ in
            try database(maximumConnections: maximumConnections, isolation: isolation)
        }
        for database in databases { database.start() }
        do {
            try await body(databases)
        } catch {
            for database in databases { await database.shutdown() }
            throw error
        }
        for database in databases { await database.shutdown() }
    }

    /// Runs `body` in a schema of its own, dropped afterwards.
    static func withFreshSchema(_ body: (PostgresDatabase) async throws -> Void) async throws {
        let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
        try await withDatabase(schema: schema) { database in
            do {
                try await body(database)
            } catch {
                try? await database.drop()
                throw error
            }
            try await database.drop()
        }
    }

    /// A key no other test uses.
    static func uniqueKey(_ prefix: String) -> String { "\(prefix)-\(UUID().uuidString)" }
}

extension PostgresDatabase {
    /// Drops the schema and everything in it.
    func drop() async throws {
        try await withConnection("drop the schema") { [schema] connection in
            try await connection.run(
                "DROP SCHEMA IF EXISTS \(unescaped: schema) CASCADE",
                logger: PostgresDatabase.quiet
            )
        }
    }
}
