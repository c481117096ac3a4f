import Foundation
import HTTPCore
import HTTPCoreTesting
import PostgresNIO
import PostgresTesting
import Testing

@testable import HTTPCorePostgres

/// postgres-nio never answers a query written to a connection that has closed, so these run the
/// queries after the connection is leased in a task, and give up waiting after a while rather
/// than hang the suite.
@Suite("Postgres: a connection that has gone", PostgresTestServer.trait, .timeLimit(.minutes(2)))
struct PostgresClosedConnectionTests {
    @Test("A query on a connection that has closed fails at once as a network error")
    func queryAfterClose() async throws {
        try await PostgresTestServer.withDatabases(1) { pools in
            let outcome = try await pools[0].withConnection("close a connection") { connection in
                try await connection.close()
                return try await finished { try await connection.run("SELECT 1") }
            }
            #expect(outcome.failure is ClosedConnectionError)
            let reported = await PostgresDatabase.outcome("read the answer") { try outcome.get() }
            let error = try #require(reported.failure as? APIError)
            #expect(error.message == "Could not read the answer: PostgreSQL closed the connection.")
            #expect(error.code == .network)
        }
    }

    @Test("Work handed a connection that has closed is not started, and fails as a network error")
    func workOnClosedConnection() async throws {
        try await PostgresTestServer.withDatabases(1) { pools in
            let started = Locked(false)
            let outcome = try await pools[0].withConnection("close a connection") { connection in
                try await connection.close()
                return await PostgresDatabase.outcome("read the answer", on: connection) { _ in
                    started.withLock { $0 = true }
                }
            }
            #expect(!started.withLock { $0 })
            let error = try #require(outcome.failure as? APIError)
            #expect(error.message == "Could not read the answer: PostgreSQL closed the connection.")
        }
    }

    @Test("A transaction whose backend the server ends fails without sending ROLLBACK to it")
    func terminatedInTransaction() async throws {
        try await PostgresTestServer.withDatabases(1) { pools in
            let outcome = try await pools[0].withConnection("end a backend") { connection in
                try await finished {
                    try await PostgresDatabase.inTransaction(on: connection, logger: PostgresDatabase.quiet) {
                        try await connection.run("SELECT pg_terminate_backend(pg_backend_pid())")
                    }
                }
            }
            let error = try #require(outcome.failure as? PSQLError)
            #expect(PostgresDatabase.sqlState(error) == "57P01")
            // The pool may hand out the lost connection once more before it notices (that use
            // fails as a network error too); then it connects anew.
            var answered = false
            for _ in 0..<20 where !answered {
                answered =
                    (try? await pools[0].withConnection("read the answer") { connection in
                        try await connection.run("SELECT 1")
                        return true
                    }) ?? false
                if !answered { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(answered)
        }
    }

    @Test("A statement cancelled by statement_timeout rolls its transaction back; the connection goes on")
    func statementTimeout() async throws {
        try await PostgresTestServer.withDatabases(1) { pools in
            try await pools[0].withConnection("time a statement out") { connection in
                let outcome = try await finished {
                    try await PostgresDatabase.inTransaction(on: connection, logger: PostgresDatabase.quiet) {
                        try await connection.run("SET LOCAL statement_timeout = 50")
                        try await connection.run("SELECT pg_sleep(5)")
                    }
                }
                let error = try #require(outcome.failure as? PSQLError)
                #expect(PostgresDatabase.sqlState(error) == "57014")
                #expect(!connection.isGone(after: error))
                // Rolled back, not left aborted: the same connection answers the next statement.
                try await connection.run("SELECT 1")
            }
        }
    }

    /// The outcome of `work`, failing the test if it has not ended within 30 seconds.
    private func finished(
        _ work: @escaping @Sendable () async throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Result<Void, any Error> {
        let outcome = Locked<Result<Void, any Error>?>(nil)
        let task = Task {
            let result: Result<Void, any Error>
            do {
                try await work()
                result = .success(())
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
        }
        let ended = await waitUntil(timeLimit: .seconds(30)) { outcome.withLock { $0 } != nil }
        if !ended { task.cancel() }
        return try #require(outcome.withLock { $0 }, "the work never ended", sourceLocation: sourceLocation)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
