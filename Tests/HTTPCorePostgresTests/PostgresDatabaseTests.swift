import Foundation
import HTTPCore
import HTTPCoreTesting
import PostgresNIO
import PostgresTesting
import Testing

@testable import HTTPCorePostgres

@Suite("Postgres: connection strings and lifecycle (no server)")
struct PostgresConfigurationTests {
    @Test("A connection string gives host, port, user, password, database; special characters decoded")
    func parsesURL() throws {
        let configuration = try PostgresDatabase.configuration(
            url: "postgresql://fleet%40app:p%3Ass%2Fw0rd@db.internal:6432/basecamp_sync?sslmode=disable"
        )
        #expect(configuration.host == "db.internal")
        #expect(configuration.port == 6432)
        #expect(configuration.username == "fleet@app")
        #expect(configuration.password == "p:ss/w0rd")
        #expect(configuration.database == "basecamp_sync")
        let defaults = try PostgresDatabase.configuration(url: "postgres://app@[::1]")
        #expect(defaults.host == "::1")
        #expect(defaults.port == 5432)
        #expect(defaults.password == nil)
        #expect(defaults.database == nil)
    }

    @Test(
        "A bad connection string is a usage error that never quotes it",
        arguments: [
            "mysql://user:hunter2secret@host/db", "postgres://user:hunter2secret@/db", "postgres://:hunter2secret@h/db",
            "postgres://user:hunter2secret@h/db?sslmode=sometimes",
        ]
    )
    func rejectsBadURL(url: String) {
        let error = #expect(throws: APIError.self) { try PostgresDatabase(url: url) }
        #expect(error?.code == .usage)
        #expect(error?.message.contains("hunter2secret") == false)
        #expect(error?.hint?.contains("postgres://USER:PASSWORD@HOST") == true)
    }

    @Test("A schema must be a plain identifier", arguments: ["httpcore", "_fleet2"])
    func acceptsSchema(name: String) throws {
        #expect(try PostgresDatabase(url: "postgres://u@h/d", schema: name).schema == name)
    }

    @Test(
        "Other schema names are refused",
        arguments: [
            "", "Fleet", "2fleet", "a;drop", "a b", String(repeating: "a", count: 64), "user", "select", "pg_cache",
        ]
    )
    func rejectsSchema(name: String) {
        let error = #expect(throws: APIError.self) { try PostgresDatabase(url: "postgres://u@h/d", schema: name) }
        #expect(error?.code == .usage)
    }

    @Test("Using a database that is not running fails at once instead of hanging")
    func notRunning() async throws {
        let database = try PostgresDatabase(url: "postgres://u:secretpw@127.0.0.1:1/d")
        let error = await caughtAPIError { try await database.migrate() }
        #expect(error?.code == .usage)
        #expect(error?.hint?.contains("start()") == true)
        #expect("\(database)" == "PostgresDatabase(127.0.0.1:1/d, schema: httpcore)")
    }

    @Test("An unreachable server is a network error naming neither the password nor the query")
    func unreachable() async throws {
        let database = try PostgresDatabase(
            url: "postgres://u:secretpw@127.0.0.1:1/d?sslmode=disable",
            connectTimeout: .milliseconds(300)
        )
        let error = try await database.withRunning { database in
            await caughtAPIError { try await database.migrate() }
        }
        #expect(error?.code == .network)
        #expect(error?.message.contains("secretpw") == false)
        #expect(error?.message.contains("could not be reached") == true)
    }

    @Test("start() and shutdown() run the pool for programs without a scope")
    func startAndShutdown() async throws {
        let database = try PostgresDatabase(url: "postgres://u@127.0.0.1:1/d")
        database.start()
        database.start()
        #expect(throws: Never.self) { try database.requireRunning() }
        await database.shutdown()
        let error = await caughtAPIError { try database.requireRunning() }
        #expect(error?.message.contains("shut down") == true)
    }
}

@Suite("Postgres: schema migrations", PostgresTestServer.trait, .timeLimit(.minutes(2)))
struct PostgresMigrationTests {
    @Test("migrate() creates the schema, records its version, and is idempotent")
    func migrateIdempotent() async throws {
        try await PostgresTestServer.withFreshSchema { database in
            #expect(try await database.schemaVersion() == 0)
            #expect(try await database.migrate() == PostgresDatabase.currentSchemaVersion)
            #expect(try await database.schemaVersion() == PostgresDatabase.currentSchemaVersion)
            #expect(try await database.migrate() == PostgresDatabase.currentSchemaVersion)
            let rows = try await database.withConnection("count versions") { [schema = database.schema] connection in
                var versions: [Int] = []
                let rows = try await connection.query(
                    "SELECT version FROM \(unescaped: schema).schema_version ORDER BY 1",
                    logger: PostgresDatabase.quiet
                )
                for try await version in rows.decode(Int.self) { versions.append(version) }
                return versions
            }
            #expect(rows == Array(1...PostgresDatabase.currentSchemaVersion))
        }
    }

    @Test(
        "A database or user the server refuses is a usage error naming which, not an unreachable server",
        arguments: [("database", "3D"), ("user", "28")]
    )
    func refusedConnection(part: String, sqlStateClass: String) async throws {
        var components = try #require(PostgresTestServer.url.flatMap(URLComponents.init(string:)))
        if part == "database" { components.path = "/no_such_database" } else { components.user = "no_such_role" }
        // The pool alone would wait out this timeout and say only that the server was unreachable.
        let database = try PostgresDatabase(url: try #require(components.string), connectTimeout: .seconds(60))
        let error = try await database.withRunning { database in
            await caughtAPIError { try await database.migrate() }
        }
        #expect(error?.code == .usage)
        #expect(error?.message.contains("SQLSTATE \(sqlStateClass)") == true)
        #expect(error?.message.contains(components.password ?? "\u{0}") == false)
    }

    @Test(
        "Workers migrating at once take turns; each ends at the current version",
        arguments: PostgresTestServer.isolationLevels
    )
    func concurrentMigrations(isolation: String) async throws {
        try await PostgresTestServer.withFreshSchema { database in
            let others = try (0..<3).map { _ in
                try PostgresTestServer.database(schema: database.schema, isolation: isolation)
            }
            let versions = try await withThrowingTaskGroup(of: Int.self) { group in
                for other in others {
                    group.addTask { try await other.withRunning { try await $0.migrate() } }
                }
                group.addTask { try await database.migrate() }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(versions == Array(repeating: PostgresDatabase.currentSchemaVersion, count: 4))
        }
    }

    @Test("A worker whose user may only read and write the tables starts on a schema migrated ahead")
    func restrictedWorker() async throws {
        try await PostgresTestServer.withFreshSchema { database in
            try await database.migrate()
            let role = "w_\(database.schema)"
            try await database.withConnection("create a worker role") { [schema = database.schema] connection in
                for statement in [
                    "DROP ROLE IF EXISTS \(role)", "CREATE ROLE \(role) LOGIN PASSWORD 'worker-pw'",
                    "GRANT USAGE ON SCHEMA \(schema) TO \(role)",
                    "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA \(schema) TO \(role)",
                    "GRANT USAGE ON ALL SEQUENCES IN SCHEMA \(schema) TO \(role)",
                ] {
                    try await connection.run(PostgresQuery(unsafeSQL: statement), logger: PostgresDatabase.quiet)
                }
            }
            let url = try #require(PostgresTestServer.url)
            var components = try #require(URLComponents(string: url))
            components.user = role
            components.password = "worker-pw"
            let workerURL = try #require(components.string)
            let worker = try PostgresTestServer.database(at: workerURL, schema: database.schema)
            try await worker.withRunning { worker in
                let store = PostgresCredentialStore(database: worker, integration: "tests", identity: "restricted")
                try await store.save(TokenCredentials(accessToken: "a"))
                #expect(try await store.loadOrThrow()?.accessToken == "a")
                // The shared cache numbers its writes from a sequence, which the grant on sequences covers.
                let cache = PostgresCacheStorage(database: worker, namespace: "restricted", timeout: .seconds(60))
                let entry = CachedResponse(
                    key: "k",
                    primaryKey: "k",
                    urlKey: "u",
                    varyHeaders: [],
                    status: 200,
                    headers: [.eTag: "\"v1\""],
                    body: Data("cached".utf8),
                    storedAt: Date(),
                    displayURL: "https://example.com/x"
                )
                _ = try await cache.store(entry)
                // Without the right to create, migrating an outdated schema would fail: it is not tried.
                #expect(try await worker.migrate() == PostgresDatabase.currentSchemaVersion)
            }
            try await database.withConnection("drop the worker role") { connection in
                for statement in ["DROP OWNED BY \(role)", "DROP ROLE \(role)"] {
                    try await connection.run(PostgresQuery(unsafeSQL: statement), logger: PostgresDatabase.quiet)
                }
            }
        }
    }

    @Test("A schema newer than the library is refused")
    func newerSchemaRefused() async throws {
        try await PostgresTestServer.withFreshSchema { database in
            try await database.migrate()
            try await database.withConnection("bump the version") { [schema = database.schema] connection in
                try await connection.run(
                    "INSERT INTO \(unescaped: schema).schema_version (version) VALUES (99)",
                    logger: PostgresDatabase.quiet
                )
            }
            let later = try PostgresTestServer.database(schema: database.schema)
            let error = try await later.withRunning { later in await caughtAPIError { try await later.migrate() } }
            #expect(error?.code == .usage)
            #expect(error?.message.contains("version 99") == true)
        }
    }
}
