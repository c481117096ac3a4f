import HTTPCore
public import Logging
public import PostgresNIO
public import ServiceLifecycle

/// A PostgreSQL database shared by a fleet of workers: a connection pool and the tables the
/// fleet's stores keep in one schema.
///
/// It wraps postgres-nio's `PostgresClient`, which does its work only while its `run()` is
/// running in a task of its own. Pick the way that fits the program:
///
/// - A server with a `ServiceGroup` adds the database as a service: it runs until the group
///   shuts down.
/// - Code with a scope of its own uses ``withRunning(_:)``, which runs the pool around a body
///   and closes it afterwards.
/// - A command-line tool or a script calls ``start()`` once and ``shutdown()`` before it exits.
///
/// Using the database before any of these throws a `usage` error instead of waiting forever.
/// The schema (see <doc:HTTPCorePostgres>) is created on first use, or by ``migrate()``.
///
/// ```swift
/// let database = try PostgresDatabase(url: "postgres://app:secret@db.internal:5432/app")
/// try await database.withRunning { database in
///     let store = PostgresCredentialStore(database: database, integration: "basecamp", identity: "12345")
///     // ...
/// }
/// ```
public final class PostgresDatabase: Sendable, Service {
    /// The schema holding the tables (`httpcore` by default).
    public let schema: String
    /// How long an operation waits for a connection before it fails with a `network` error.
    public let connectTimeout: Duration

    let client: PostgresClient
    let configuration: PostgresClient.Configuration
    /// The same server as a single connection's configuration, for asking why the pool cannot
    /// connect; known only for a database made from a connection string, since a pool's TLS
    /// settings cannot be read back.
    let probeConfiguration: (@Sendable () -> PostgresConnection.Configuration?)?
    /// Whether the pool has handed out a connection, which proves the address and credentials.
    let hasConnected = Locked(false)
    /// The one probe of ``probeConfiguration`` running for every operation waiting on the pool.
    let probe = SharedProbe<PSQLError>()
    let logger: Logger
    private let lifecycle = Locked(Lifecycle.idle)
    let migration = MigrationGate()

    private enum Lifecycle: Sendable {
        case idle
        case running
        case background(Task<Void, Never>)
        case stopped
    }

    /// A database on a postgres-nio client configuration.
    ///
    /// - Parameters:
    ///   - configuration: Where to connect, the credentials, TLS and pool sizes; its
    ///     `options.connectTimeout` also bounds how long an operation waits for a connection.
    ///   - schema: The schema for the tables: lower-case letters, digits and `_`, starting with
    ///     a letter or `_`, at most 63 characters.
    ///   - logger: Receives postgres-nio's background messages; none by default. Queries carry
    ///     tokens as bound parameters, so keep its level above `debug` in production.
    /// - Throws: ``APIError/usage(_:)`` for a schema name that is not a plain identifier.
    public convenience init(
        configuration: PostgresClient.Configuration,
        schema: String = "httpcore",
        logger: Logger = Logger(label: "HTTPCorePostgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        try self.init(configuration: configuration, probe: nil, schema: schema, logger: logger)
    }

    init(
        configuration: PostgresClient.Configuration,
        probe: (@Sendable () -> PostgresConnection.Configuration?)?,
        schema: String,
        logger: Logger
    ) throws {
        guard Self.isPlainIdentifier(schema) else {
            throw APIError.usage(
                "The schema name \"\(schema.prefix(80))\" is not a plain identifier.",
                hint: "Use lower-case letters, digits and _ (at most 63), starting with a letter or _; "
                    + "not a reserved SQL word, nor pg_…, which PostgreSQL keeps for itself."
            )
        }
        self.schema = schema
        self.logger = logger
        self.configuration = configuration
        self.probeConfiguration = probe
        self.connectTimeout = configuration.options.connectTimeout
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    /// Runs the connection pool until the task is cancelled or the service group shuts down.
    ///
    /// A database runs once: a second call, or a call after ``start()``, returns at once.
    public func run() async {
        guard claimRun() else { return }
        await client.run()
        lifecycle.withLock { $0 = .stopped }
    }

    /// Runs the connection pool around `body`, then closes it.
    ///
    /// - Throws: What `body` throws, or ``APIError/usage(_:)`` when the database is already
    ///   running or was closed.
    public func withRunning<Result: Sendable>(
        _ body: (PostgresDatabase) async throws -> Result
    ) async throws -> Result {
        guard claimRun() else { throw Self.alreadyRunning }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [client, lifecycle] in
                await client.run()
                lifecycle.withLock { $0 = .stopped }
            }
            defer { group.cancelAll() }
            return try await body(self)
        }
    }

    /// Runs the connection pool in a task of its own, for programs without a service group or
    /// a scope to run it in; call ``shutdown()`` before the program ends. Does nothing when the
    /// database runs already.
    public func start() {
        lifecycle.withLock { state in
            guard case .idle = state else { return }
            state = .background(Task { [client] in await client.run() })
        }
    }

    /// Closes the pool started by ``start()`` and waits until its connections are closed.
    public func shutdown() async {
        let task: Task<Void, Never>? = lifecycle.withLock { state in
            guard case .background(let task) = state else { return nil }
            state = .stopped
            return task
        }
        task?.cancel()
        await task?.value
    }

    private func claimRun() -> Bool {
        lifecycle.withLock { state in
            guard case .idle = state else { return false }
            state = .running
            return true
        }
    }

    /// Throws unless the pool is running, so a forgotten ``start()`` fails instead of hanging.
    func requireRunning() throws {
        let state = lifecycle.withLock { $0 }
        switch state {
        case .running, .background: return
        case .idle:
            throw APIError.usage(
                "The PostgreSQL database is not running.",
                hint: "Run it in a service group, inside withRunning { }, or call start() first."
            )
        case .stopped:
            throw APIError.usage("The PostgreSQL database was shut down.")
        }
    }

    private static let alreadyRunning = APIError.usage(
        "The PostgreSQL database is already running or was shut down.",
        hint: "Create one PostgresDatabase per pool and run it once."
    )

    /// Whether `name` can stand in SQL unquoted, as the schema is written into every statement.
    static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.first, first == "_" || ("a"..."z").contains(first), name.count <= 63,
            !name.hasPrefix("pg_"), !reservedWords.contains(name)
        else { return false }
        return name.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }

    /// PostgreSQL's reserved key words and those it reserves from names of schemas (appendix C of
    /// its documentation): unquoted, each makes `CREATE SCHEMA name` a syntax error.
    static let reservedWords: Set<String> = [
        "all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "authorization", "binary",
        "both", "case", "cast", "check", "collate", "collation", "column", "concurrently", "constraint", "create",
        "cross", "current_catalog", "current_date", "current_role", "current_schema", "current_time",
        "current_timestamp", "current_user", "default", "deferrable", "desc", "distinct", "do", "else", "end",
        "except", "false", "fetch", "for", "foreign", "freeze", "from", "full", "grant", "group", "having", "ilike",
        "in", "initially", "inner", "intersect", "into", "is", "isnull", "join", "lateral", "leading", "left",
        "like", "limit", "localtime", "localtimestamp", "natural", "not", "notnull", "null", "offset", "on", "only",
        "or", "order", "outer", "overlaps", "placing", "primary", "references", "returning", "right", "select",
        "session_user", "similar", "some", "symmetric", "system_user", "table", "tablesample", "then", "to",
        "trailing", "true", "union", "unique", "user", "using", "variadic", "verbose", "when", "where", "window",
        "with",
    ]
}

extension PostgresDatabase: CustomStringConvertible {
    /// The host, port, database and schema; never the password.
    public var description: String {
        let place = configuration.host.map { "\($0):\(configuration.port ?? 5432)" } ?? "socket"
        return "PostgresDatabase(\(place)/\(configuration.database ?? configuration.username), schema: \(schema))"
    }
}
