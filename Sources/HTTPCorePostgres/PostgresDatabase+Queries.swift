import HTTPCore
import Logging
import PostgresNIO

extension PostgresDatabase {
    /// Runs `body` on a pooled connection, turning database failures into ``APIError``s that
    /// say what failed without quoting the query (its bound values may be tokens).
    ///
    /// postgres-nio keeps trying to connect to a server that is down, or that refuses the user or
    /// the database, without saying why; a connection not had within ``connectTimeout`` fails
    /// with a `network` error instead of waiting on. Until the pool has connected once, a wait
    /// of a second asks the server directly (``refusal(_:)``), so a wrong user, password or
    /// database is reported at once and as what it is. Any other answer to that question (a
    /// server starting up, one out of connections) leaves the operation waiting for the pool.
    func withConnection<Result: Sendable>(
        _ action: String,
        _ body: @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try requireRunning()
        let outcome = await withoutActuallyEscaping(body) { body in
            await withTaskGroup(of: Swift.Result<Result, any Error>?.self) { group in
                let leased = Locked(false)
                group.addTask { [client] in
                    do {
                        return try await client.withConnection { [connected = self.hasConnected] connection in
                            leased.withLock { $0 = true }
                            connected.withLock { $0 = true }
                            return await Self.outcome(action, on: connection, body)
                        }
                    } catch {
                        return .failure(Self.unreachable(action, error))
                    }
                }
                group.addTask { [connectTimeout] in
                    let deadline = ContinuousClock.now + connectTimeout
                    // With no time left after the delay, a probe would only outlast the timeout.
                    if connectTimeout > Self.probeDelay, (try? await Task.sleep(for: Self.probeDelay)) != nil,
                        !leased.withLock({ $0 }), let refusal = await self.refusal(action),
                        !leased.withLock({ $0 })
                    {
                        return .failure(refusal)
                    }
                    try? await Task.sleep(until: deadline)
                    return leased.withLock { $0 } ? nil : .failure(Self.unreachable(action, nil))
                }
                for await result in group {
                    guard let result else { continue }
                    group.cancelAll()
                    return result
                }
                return .failure(CancellationError())
            }
        }
        return try outcome.get()
    }

    /// How long an operation waits for the pool before asking the server why it has no connection.
    static let probeDelay = Duration.seconds(1)

    /// The server's refusal of this database's user, password or database, asked on a connection
    /// of its own that every waiting operation shares: `nil` once the pool has connected (which
    /// proves them, and keeps a busy pool's waiters from opening connections), for a database
    /// made without a connection string, and when the server accepts, cannot be reached, or
    /// fails for another reason.
    func refusal(_ action: String) async -> APIError? {
        guard !hasConnected.withLock({ $0 }), let configuration = probeConfiguration?() else { return nil }
        let refused = await probe.outcome {
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: configuration,
                    id: 0,
                    logger: Self.quiet
                )
                try? await connection.close()
                return nil
            } catch let error as PSQLError where Self.isRefusal(Self.sqlState(error)) {
                return error
            } catch {
                return nil
            }
        }
        return refused.map { Self.apiError($0, action) }
    }

    /// Whether a SQLSTATE refuses the connection for good: the user or password (class 28) or
    /// the database (3D000). A server starting up (57P03) or out of connections (53300) may
    /// let the pool in a moment later.
    static func isRefusal(_ sqlState: String?) -> Bool {
        guard let sqlState else { return false }
        return sqlState.hasPrefix("28") || sqlState == "3D000"
    }

    /// Runs `body` on `connection` when given (inside a refresh lock), else on a pooled one.
    func on<Result: Sendable>(
        _ connection: PostgresConnection?,
        _ action: String,
        _ body: @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        guard let connection else { return try await withConnection(action, body) }
        return try await Self.outcome(action, on: connection, body).get()
    }

    /// What `body` returned or threw on `connection`, as ``outcome(_:_:)`` says; a connection
    /// that has closed fails at once, since the pool can hand one out before it notices.
    static func outcome<Result>(
        _ action: String,
        on connection: PostgresConnection,
        _ body: (PostgresConnection) async throws -> Result
    ) async -> Swift.Result<Result, any Error> {
        await outcome(action) {
            try connection.requireOpen()
            return try await body(connection)
        }
    }

    /// What `body` returned or threw, its database failures as ``APIError``s.
    static func outcome<Result>(
        _ action: String,
        _ body: () async throws -> Result
    ) async -> Swift.Result<Result, any Error> {
        do {
            return .success(try await body())
        } catch let error as PSQLError {
            return .failure(apiError(error, action))
        } catch is ClosedConnectionError {
            return .failure(
                APIError.network(
                    APIError.Details(
                        message: "Could not \(action): PostgreSQL closed the connection.",
                        hint: "Try again; check the server's health."
                    )
                )
            )
        } catch {
            return .failure(error)
        }
    }

    /// A failure to get a connection: the server down, refusing, or not answering in time.
    static func unreachable(_ action: String, _ error: (any Error)?) -> any Error {
        switch error {
        case let error as PSQLError: return apiError(error, action)
        case let error as CancellationError: return error
        default:
            return APIError.network(
                APIError.Details(
                    message: "Could not \(action): PostgreSQL could not be reached.",
                    hint: "Check that the server runs and the connection string's host and port."
                )
            )
        }
    }

    /// Starts a transaction whose every statement sees what others committed before it, whatever
    /// the server's `default_transaction_isolation`: after waiting for a lock, a statement must
    /// read what the lock's previous holder wrote, not a snapshot from before the wait.
    static let begin: PostgresQuery = "BEGIN ISOLATION LEVEL READ COMMITTED"

    /// Runs `body` between ``begin`` and `COMMIT`, rolling back when it throws.
    static func inTransaction<Result: Sendable>(
        on connection: PostgresConnection,
        logger: Logger,
        _ body: () async throws -> Result
    ) async throws -> Result {
        try await connection.run(begin, logger: logger)
        let result: Result
        do {
            result = try await body()
        } catch {
            if !connection.isGone(after: error) { try? await connection.run("ROLLBACK", logger: logger) }
            throw error
        }
        try await connection.run("COMMIT", logger: logger)
        return result
    }

    /// `duration` as a `lock_timeout` setting: whole milliseconds, from 1 to PostgreSQL's most
    /// (2^31 - 1, about 24.8 days), which a longer value would fail the statement with.
    static func lockTimeout(_ duration: Duration) -> String {
        String(Int(min(max(duration.seconds, 0.001), 2_147_483) * 1000)) + "ms"
    }

    /// A logger that drops everything, for queries whose binds are secrets.
    static let quiet = Logger(label: "HTTPCorePostgres.quiet", factory: { _ in SwiftLogNoOpLogHandler() })

    /// The SQLSTATE of a server error (`55P03`), or `nil` for other failures.
    static func sqlState(_ error: PSQLError) -> String? {
        error.code == .server ? error.serverInfo?[.sqlState] : nil
    }

    /// An ``APIError`` for a postgres-nio failure: its code and SQLSTATE, never the server's
    /// message or the query, which may quote bound values.
    static func apiError(_ error: PSQLError, _ action: String) -> APIError {
        guard let state = sqlState(error) else {
            return APIError.network(
                APIError.Details(
                    message: "Could not \(action): PostgreSQL could not be reached (\(error.code)).",
                    hint: "Check that the server runs and the connection string's host and port."
                )
            )
        }
        switch state.prefix(2) {
        case "28":
            return APIError.usage(
                "Could not \(action): PostgreSQL refused the user name or password (SQLSTATE \(state)).",
                hint: "Check the connection string's user and password."
            )
        case "3D":
            return APIError.usage(
                "Could not \(action): the database does not exist (SQLSTATE \(state)).",
                hint: "Create it, or name another in the connection string."
            )
        case "42" where state == "42501":
            return APIError.usage(
                "Could not \(action): the database user lacks a permission (SQLSTATE \(state)).",
                hint: "Grant it, or run migrate() once as a user who may create the schema."
            )
        case "57" where state == "57014":
            return APIError.network(
                APIError.Details(
                    message: "Could not \(action): PostgreSQL cancelled the statement (SQLSTATE 57014).",
                    hint: "Try again; a statement_timeout set for this database user may be too short."
                )
            )
        case "08", "53", "57":
            return APIError.network(
                APIError.Details(
                    message: "Could not \(action): PostgreSQL dropped the connection (SQLSTATE \(state)).",
                    hint: "Try again; check the server's health and its max_connections."
                )
            )
        default:
            return APIError.apiError(
                APIError.Details(message: "Could not \(action): PostgreSQL failed with SQLSTATE \(state).")
            )
        }
    }
}

extension PostgresConnection {
    /// Runs `query` to its end. postgres-nio hands back a query's rows before the server has
    /// finished it, so a failure (a lock timeout, a broken constraint) would otherwise be lost
    /// with the unread rows, and a lock query would return before the lock is had.
    func run(_ query: PostgresQuery, logger: Logger = PostgresDatabase.quiet) async throws {
        try requireOpen()
        let rows = try await self.query(query, logger: logger)
        for try await _ in rows {}
    }

    /// Throws ``ClosedConnectionError`` when the connection has closed: postgres-nio never answers
    /// a query written to a closed connection, so one sent after the server dropped it (a
    /// `ROLLBACK` after the failure that the drop caused) would wait for ever.
    func requireOpen() throws {
        if isClosed { throw ClosedConnectionError() }
    }

    /// Starts closing the connection, for a cancellation handler that cannot wait; a query
    /// waiting on it then fails, and the server ends any transaction that was open.
    func closeWithoutWaiting() {
        let closing: EventLoopFuture<Void> = close()
        _ = closing
    }

    /// Closes the connection and waits until the pool has heard that it closed, so the pool never
    /// lends it, closed but not yet removed, to the next caller.
    ///
    /// `close()` alone returns at once when the channel is already inactive (a cancellation
    /// handler started the close), which can be before its close future has completed and so
    /// before the pool's close callback, added first and so run first, has removed it.
    func closeAndWait() async {
        closeWithoutWaiting()
        try? await closeFuture.get()
    }

    /// Whether `error` says the connection is gone (the server ended it, or it closed), so
    /// nothing more may be sent on it: the server rolls back what was open.
    func isGone(after error: any Error) -> Bool {
        if isClosed || error is ClosedConnectionError { return true }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection, .connectionError: return true
        case .server:
            // Class 57 (operator intervention: the backend was terminated) and 08 (connection
            // exception) end the session, except 57014: a statement cancelled by
            // `statement_timeout` leaves the session open, its transaction to be rolled back.
            guard let state = PostgresDatabase.sqlState(error), state != "57014" else { return false }
            return state.hasPrefix("57") || state.hasPrefix("08")
        default: return false
        }
    }
}

/// A query was not sent because its connection had closed.
struct ClosedConnectionError: Error {}
