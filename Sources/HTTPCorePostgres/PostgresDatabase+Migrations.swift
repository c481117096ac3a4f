import HTTPCore
import PostgresNIO

extension PostgresDatabase {
    /// The schema version this library needs: the number of migrations it knows.
    public static var currentSchemaVersion: Int { PostgresSchema.migrations(in: "httpcore").count }

    /// Creates or upgrades the tables to ``currentSchemaVersion``; does nothing when they are
    /// current.
    ///
    /// Stores call it on first use, so calling it is optional: a deployment step may run it
    /// ahead of the workers, whose database user then needs no right to create anything (a
    /// current schema is only read). Workers migrating at once take turns on an advisory lock,
    /// and the migrations commit with their version rows, so a crash leaves the schema as it
    /// was.
    ///
    /// - Returns: The schema version now.
    /// - Throws: ``APIError/network(_:)`` when the server cannot be reached, or
    ///   ``APIError/usage(_:)`` when the database refuses (for example: no right to create a
    ///   schema), and when the schema is newer than this library knows.
    @discardableResult
    public func migrate() async throws -> Int {
        try await migration.run { try await self.applyMigrations() }
    }

    /// The version recorded in the schema; 0 when it was never migrated.
    ///
    /// - Throws: ``APIError/network(_:)`` when the server cannot be reached.
    public func schemaVersion() async throws -> Int {
        try await withConnection("read the schema version") { connection in
            try await Self.recordedVersion(schema: self.schema, on: connection)
        }
    }

    /// Migrates once per process before the first use of a table.
    func prepare() async throws {
        guard await !migration.isDone else { return }
        try await migrate()
    }

    private func applyMigrations() async throws -> Int {
        try await withConnection("migrate the schema") { connection in
            // A current schema needs no DDL, so workers whose user may not create schemas
            // start on a database migrated ahead of them.
            let current = PostgresSchema.migrations(in: self.schema).count
            if try await Self.recordedVersion(schema: self.schema, on: connection) == current { return current }
            return try await Self.inTransaction(on: connection, logger: self.logger) {
                try await connection.run(
                    "SELECT pg_advisory_xact_lock(hashtextextended(\(PostgresSchema.lockName(self.schema)), 0))",
                    logger: self.logger
                )
                for statement in PostgresSchema.bootstrap(in: self.schema) {
                    try await connection.run(PostgresQuery(unsafeSQL: statement), logger: self.logger)
                }
                let recorded = try await Self.recordedVersion(schema: self.schema, on: connection)
                let migrations = PostgresSchema.migrations(in: self.schema)
                guard recorded <= migrations.count else {
                    throw APIError.usage(
                        "The schema \(self.schema) is at version \(recorded), newer than this library's \(migrations.count).",
                        hint: "Update the library, or use another schema."
                    )
                }
                for (index, migration) in migrations.enumerated().dropFirst(recorded) {
                    for statement in migration {
                        try await connection.run(PostgresQuery(unsafeSQL: statement), logger: self.logger)
                    }
                    try await connection.run(
                        "INSERT INTO \(unescaped: self.schema).schema_version (version) VALUES (\(index + 1))",
                        logger: self.logger
                    )
                }
                return migrations.count
            }
        }
    }

    private static func recordedVersion(schema: String, on connection: PostgresConnection) async throws -> Int {
        let exists = try await connection.query(
            "SELECT to_regclass(\(schema + ".schema_version")) IS NOT NULL",
            logger: Self.quiet
        )
        for try await present in exists.decode(Bool.self) where !present { return 0 }
        let rows = try await connection.query(
            "SELECT coalesce(max(version), 0) FROM \(unescaped: schema).schema_version",
            logger: Self.quiet
        )
        for try await version in rows.decode(Int.self) { return version }
        return 0
    }
}

/// Runs the migrations once per database object: concurrent first uses wait for one run.
actor MigrationGate {
    private var done = false
    private var running: Task<Int, any Error>?

    var isDone: Bool { done }

    func run(_ migrate: @escaping @Sendable () async throws -> Int) async throws -> Int {
        if let running { return try await running.value }
        let task = Task { try await migrate() }
        running = task
        defer { running = nil }
        let version = try await task.value
        done = true
        return version
    }
}
