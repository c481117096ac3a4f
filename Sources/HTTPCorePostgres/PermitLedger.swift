import HTTPCore
import PostgresNIO

/// Where a ``PostgresRateLimiter`` leases permits: the database, or a stand-in in tests.
protocol PermitLedger: Sendable {
    /// Leases up to `want` permits for `key`, first giving back `returning` (permits of an
    /// expired lease that were never used); the answer says when, on `clock`, the statement left.
    func lease(_ key: String, want: Int, returning: PermitLease?, clock: any TimeSource) async throws -> LeaseAnswer

    /// Stops every lease for `key` until `duration` from now on the ledger's clock.
    func pause(_ key: String, for duration: Duration) async throws
}

/// Permits leased together: the lease's id and how many.
struct PermitLease: Sendable, Equatable {
    /// The ledger's name for the lease (when it was granted, on the ledger's clock).
    var id: Int64
    /// How many permits.
    var count: Int
}

/// What a lease statement answered.
struct LeaseAnswer: Sendable, Equatable {
    /// The permits granted; `count` is 0 when none was free.
    var lease: PermitLease
    /// With none granted: how long until one could be (the budget refills or a pause ends).
    var wait: Duration
    /// When the statement was sent, on the limiter's clock: once a connection was in hand, so
    /// waiting for the pool or for the schema does not count against the lease's lifetime. The
    /// database grants no earlier, so a lease counted from here never outlives its budget.
    var sentAt: Duration
}

/// The ledger in PostgreSQL: one `rate_limits` row per key, leased by one statement.
struct PostgresPermitLedger: PermitLedger {
    let database: PostgresDatabase
    /// Permits per span.
    let permits: Int
    /// How long a leased permit counts: the window plus the lease lifetime.
    let span: Duration

    func lease(_ key: String, want: Int, returning: PermitLease?, clock: any TimeSource) async throws -> LeaseAnswer {
        try await database.prepare()
        let spanMicroseconds = span.wholeMicroseconds
        let returnID = returning?.id ?? 0
        let returnCount = returning?.count ?? 0
        return try await database.withConnection("lease rate-limit permits") {
            [schema = database.schema, permits] connection in
            var attempt = 0
            while true {
                attempt += 1
                do {
                    let sentAt = clock.monotonicNow()
                    let rows = try await connection.query(
                        """
                        SELECT granted, lease_at, wait_us FROM \(unescaped: schema).rate_limit_lease(
                            \(key), \(permits), \(spanMicroseconds), \(want), \(returnID), \(returnCount))
                        """,
                        logger: PostgresDatabase.quiet
                    )
                    for try await (granted, leaseID, wait) in rows.decode((Int64, Int64, Int64).self) {
                        return LeaseAnswer(
                            lease: PermitLease(id: leaseID, count: Int(granted)),
                            wait: .microseconds(max(wait, 0)),
                            sentAt: sentAt
                        )
                    }
                    throw APIError.apiError(APIError.Details(message: "Could not lease rate-limit permits: no answer."))
                } catch let error as PSQLError where PostgresDatabase.sqlState(error) == "40001" && attempt < 5 {
                    // A server whose default isolation is stricter than read committed refuses a
                    // lease that waited for another's row lock; nothing was applied, so it is
                    // asked again, with a fresh snapshot.
                    continue
                }
            }
        }
    }

    func pause(_ key: String, for duration: Duration) async throws {
        try await database.prepare()
        let microseconds = duration.wholeMicroseconds
        try await database.withConnection("pause a rate limit") { [schema = database.schema] connection in
            try await connection.run(
                """
                INSERT INTO \(unescaped: schema).rate_limits AS r (key, paused_until)
                VALUES (\(key), clock_timestamp() + make_interval(secs => \(Double(microseconds) / 1e6)))
                ON CONFLICT (key) DO UPDATE
                    SET paused_until = greatest(r.paused_until, excluded.paused_until), updated_at = now()
                """,
                logger: PostgresDatabase.quiet
            )
        }
    }
}

extension Duration {
    /// The duration in whole microseconds, rounded up.
    var wholeMicroseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + (attoseconds + 999_999_999_999) / 1_000_000_000_000
    }
}
