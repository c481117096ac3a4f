import Foundation
import HTTPCore
import HTTPTypes
import PostgresNIO

extension PostgresCacheStorage {
    /// The columns of a summary, in the order ``summaries(_:)`` decodes them.
    private static let summaryColumns = "key, primary_key, url_key, vary_headers, byte_count, display_url"
    private static let evictedColumns = "e.key, e.primary_key, e.url_key, e.vary_headers, e.byte_count, e.display_url"

    /// Every variant stored under a primary key (usually one), bodies included.
    func variants(of primaryKey: String, on connection: PostgresConnection) async throws -> [CachedResponse] {
        let rows = try await connection.query(
            """
            SELECT key, url_key, vary_headers, status, header_names, header_values, body, stored_at, display_url
            FROM \(unescaped: database.schema).cache_entries
            WHERE namespace = \(namespace) AND primary_key = \(primaryKey)
            """,
            logger: PostgresDatabase.quiet
        )
        var found: [CachedResponse] = []
        for try await row in rows.decode(
            (String, String, [String], Int, [String], [String], Data, Date, String).self
        ) {
            // A row whose headers cannot be rebuilt is skipped: a miss, never a crash.
            guard let headers = Self.headers(names: row.4, values: row.5) else { continue }
            found.append(
                CachedResponse(
                    key: row.0,
                    primaryKey: primaryKey,
                    urlKey: row.1,
                    varyHeaders: row.2,
                    status: row.3,
                    headers: headers,
                    body: row.6,
                    storedAt: row.7,
                    displayURL: row.8
                )
            )
        }
        return found
    }

    /// Writes `entry` and trims the namespace to ``maxBytes`` in one transaction, holding the
    /// namespace's advisory lock so that concurrent stores count each other's bytes.
    func write(_ entry: CachedResponse, on connection: PostgresConnection) async throws -> [CacheEntrySummary] {
        let schema = database.schema
        let names = entry.headers.map(\.name.rawName)
        let values = entry.headers.map(\.value)
        // The server gives up the wait with the caller: a task cancelled at ``timeout`` cannot
        // stop a query, and a store stuck behind a stalled lock holder would keep its connection.
        let lockTimeout = PostgresDatabase.lockTimeout(min(timeout, .seconds(86_400)))
        return try await PostgresDatabase.inTransaction(on: connection, logger: PostgresDatabase.quiet) {
            try await connection.run("SELECT set_config('lock_timeout', \(lockTimeout), true)")
            try await connection.run(
                "SELECT pg_advisory_xact_lock(hashtextextended(\("httpcore-cache/\(schema)/\(namespace)"), 0))"
            )
            // Variants whose Vary differs can never match again.
            var dropped = try await summaries(
                connection.query(
                    """
                    DELETE FROM \(unescaped: schema).cache_entries
                    WHERE namespace = \(namespace) AND primary_key = \(entry.primaryKey)
                        AND key <> \(entry.key) AND vary_headers <> \(entry.varyHeaders)
                    RETURNING \(unescaped: Self.summaryColumns)
                    """,
                    logger: PostgresDatabase.quiet
                )
            )
            try await connection.run(
                """
                INSERT INTO \(unescaped: schema).cache_entries
                    (namespace, key, primary_key, url_key, vary_headers, status, header_names, header_values,
                     body, byte_count, display_url, stored_at, write_order)
                VALUES (\(namespace), \(entry.key), \(entry.primaryKey), \(entry.urlKey), \(entry.varyHeaders),
                    \(entry.status), \(names), \(values), \(entry.body), \(entry.byteCount), \(entry.displayURL),
                    \(entry.storedAt), nextval('\(unescaped: schema).cache_write_order'))
                ON CONFLICT (namespace, key) DO UPDATE SET
                    primary_key = excluded.primary_key, url_key = excluded.url_key,
                    vary_headers = excluded.vary_headers, status = excluded.status,
                    header_names = excluded.header_names, header_values = excluded.header_values,
                    body = excluded.body, byte_count = excluded.byte_count, display_url = excluded.display_url,
                    stored_at = excluded.stored_at, write_order = excluded.write_order
                """
            )
            // Newest first, the running total of bytes: what lies beyond the bound goes.
            dropped += try await summaries(
                connection.query(
                    """
                    DELETE FROM \(unescaped: schema).cache_entries AS e
                    USING (
                        SELECT key, sum(byte_count) OVER (ORDER BY write_order DESC) AS running
                        FROM \(unescaped: schema).cache_entries WHERE namespace = \(namespace)
                    ) AS ordered
                    WHERE e.namespace = \(namespace) AND e.key = ordered.key AND ordered.running > \(maxBytes)
                    RETURNING \(unescaped: Self.evictedColumns)
                    """,
                    logger: PostgresDatabase.quiet
                )
            )
            return dropped
        }
    }

    /// Deletes the namespace's entries whose `column` equals `value`.
    func delete(
        where column: String,
        is value: String,
        on connection: PostgresConnection
    ) async throws
        -> [CacheEntrySummary]
    {
        try await summaries(
            connection.query(
                """
                DELETE FROM \(unescaped: database.schema).cache_entries
                WHERE namespace = \(namespace) AND \(unescaped: column) = \(value)
                RETURNING \(unescaped: Self.summaryColumns)
                """,
                logger: PostgresDatabase.quiet
            )
        )
    }

    /// The summaries a `RETURNING` of ``summaryColumns`` produced.
    private func summaries(_ rows: PostgresRowSequence) async throws -> [CacheEntrySummary] {
        var found: [CacheEntrySummary] = []
        for try await row in rows.decode((String, String, String, [String], Int, String).self) {
            found.append(
                CacheEntrySummary(
                    key: row.0,
                    primaryKey: row.1,
                    urlKey: row.2,
                    varyHeaders: row.3,
                    byteCount: row.4,
                    displayURL: row.5
                )
            )
        }
        return found
    }

    /// Header fields from their stored names and values; `nil` when they do not pair up.
    private static func headers(names: [String], values: [String]) -> HTTPFields? {
        guard names.count == values.count else { return nil }
        var fields = HTTPFields()
        for (name, value) in zip(names, values) {
            guard let name = HTTPField.Name(name) else { return nil }
            fields.append(HTTPField(name: name, value: value))
        }
        return fields
    }
}
