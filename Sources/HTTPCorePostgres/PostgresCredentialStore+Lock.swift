import HTTPCore
import PostgresNIO

extension PostgresCredentialStore {
    /// Runs `body` holding this identity's refresh lock across every worker on the database.
    ///
    /// The lock is `pg_advisory_xact_lock` in a transaction on a connection of its own: it is
    /// held for the whole of `body` (the refresh request included) and released when the
    /// transaction ends, whether `body` returns or throws, and by the server when the worker
    /// dies or its connection drops. Loads and saves inside `body` use that same connection,
    /// so a pool of one connection cannot deadlock, and they are committed even when `body`
    /// throws afterwards: a rotated token, once saved, is never rolled back. When the commit
    /// itself fails (the connection dropped between the save and the commit), the last save is
    /// made again on a fresh connection, since the provider has revoked the token it replaced.
    ///
    /// - Throws: ``APIError/network(_:)`` when the lock stays taken longer than
    ///   ``lockTimeout`` or the database cannot be reached; `CancellationError` when the task is
    ///   cancelled while waiting; what `body` throws.
    public func withRefreshLock<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
        try await database.prepare()
        let name = lockName
        let timeout = PostgresDatabase.lockTimeout(lockTimeout)
        let description = description
        let saved = Locked<TokenCredentials?>(nil)
        let (outcome, committed) = try await database.withConnection("take the refresh lock") {
            connection -> (Swift.Result<Result, any Error>, Bool) in
            try await connection.run(PostgresDatabase.begin, logger: PostgresDatabase.quiet)
            do {
                // A server's idle-in-transaction timeout would end the lock while the refresh
                // request is out, letting a second worker spend the same refresh token.
                try await connection.run(
                    """
                    SELECT set_config('lock_timeout', \(timeout), true),
                        set_config('idle_in_transaction_session_timeout', '0', true)
                    """,
                    logger: PostgresDatabase.quiet
                )
                try await Self.acquire(name, on: connection, store: description)
            } catch {
                if Task.isCancelled || connection.isGone(after: error) {
                    // The cancelled wait closed the connection (or this closes it), which ends the
                    // transaction on the server; a query sent on a closing connection may never be
                    // answered.
                    await connection.closeAndWait()
                } else {
                    try? await connection.run("ROLLBACK", logger: PostgresDatabase.quiet)
                }
                throw error
            }
            let outcome: Swift.Result<Result, any Error>
            let held = RefreshLock.Held(name, connection, saved)
            do {
                outcome = .success(try await RefreshLock.$held.withValue(held) { try await body() })
            } catch {
                outcome = .failure(error)
            }
            // Committed either way: what the body saved stays saved.
            do {
                try await connection.run("COMMIT", logger: PostgresDatabase.quiet)
                return (outcome, true)
            } catch {
                // A connection that cannot end its transaction must not go back to the pool.
                await connection.closeAndWait()
                guard saved.withLock({ $0 }) != nil else { throw error }
                return (outcome, false)
            }
        }
        // The save was lost with the commit, and the provider has revoked the token it replaced:
        // it is made again on a fresh connection, once the broken one has left the pool.
        if !committed, let last = saved.withLock({ $0 }) { try await save(last) }
        return try outcome.get()
    }

    /// Waits for the advisory lock; closing the connection on cancellation ends the wait and the
    /// transaction at once.
    private static func acquire(_ name: String, on connection: PostgresConnection, store: String) async throws {
        do {
            try await withTaskCancellationHandler {
                try await connection.run(
                    "SELECT pg_advisory_xact_lock(hashtextextended(\(name), 0))",
                    logger: PostgresDatabase.quiet
                )
            } onCancel: {
                connection.closeWithoutWaiting()
            }
        } catch let error as PSQLError where PostgresDatabase.sqlState(error) == "55P03" {
            throw APIError.network(
                APIError.Details(
                    message: "Another worker kept refreshing the credentials of \(store) too long.",
                    hint: "Try again; a worker using these credentials may be stuck."
                )
            )
        }
        try Task.checkCancellation()
    }
}

/// The refresh lock the current task holds, so the store's queries inside the lock use its
/// connection.
enum RefreshLock {
    /// A lock held: its name, its connection, and the last credentials saved under it.
    struct Held: Sendable {
        let name: String
        let connection: PostgresConnection
        let saved: Locked<TokenCredentials?>

        init(_ name: String, _ connection: PostgresConnection, _ saved: Locked<TokenCredentials?>) {
            self.name = name
            self.connection = connection
            self.saved = saved
        }
    }

    @TaskLocal static var held: Held?

    /// The lock's connection when the current task holds the lock named `name`.
    static func connection(for name: String) -> PostgresConnection? {
        guard let held, held.name == name else { return nil }
        return held.connection
    }

    /// Notes `credentials` as saved under the lock named `name`, if the current task holds it;
    /// `nil` after a removal, which leaves nothing to save again.
    static func noteSaved(_ credentials: TokenCredentials?, for name: String) {
        guard let held, held.name == name else { return }
        held.saved.withLock { $0 = credentials }
    }
}
