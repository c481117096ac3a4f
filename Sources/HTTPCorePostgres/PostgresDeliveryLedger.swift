import Foundation
import HTTPCore
public import HTTPCoreWebhooks
import PostgresNIO

/// A webhook delivery ledger shared by every replica of a receiver, in PostgreSQL: an event is
/// handled by one replica, once.
///
/// ```swift
/// let ledger = PostgresDeliveryLedger(database: database, receiver: "basecamp")
/// var receiver = WebhookReceiver<BasecampWebhookEvent>(signature: signature, ledger: ledger)
/// ```
///
/// A claim is one `INSERT … ON CONFLICT` that succeeds when the event is new or its last claim's
/// lease has run out on the server's clock (so a crashed replica's event is taken over once
/// ``lease`` has passed); a delivery of an event another replica holds is answered 503, so the
/// sender delivers it again later. While its handlers run, the receiver renews the claim every
/// quarter of the lease, so a handler may take longer than the lease. Handled events are kept
/// for ``retention``; each record of a
/// handled event also deletes the receiver's rows older than that, so the table stays bounded.
public struct PostgresDeliveryLedger: WebhookDeliveryLedger, CustomStringConvertible {
    /// The database.
    public let database: PostgresDatabase
    /// Which receiver's deliveries these are: replicas of one receiver share the name.
    public let receiver: String
    /// How long a claim holds, unless renewed, before another replica may take the event over:
    /// how long a crashed replica's event waits.
    public var lease: Duration
    /// How long handled events are remembered: longer than the sender goes on redelivering.
    public var retention: Duration

    /// A ledger for one receiver.
    ///
    /// - Parameters:
    ///   - database: The shared database.
    ///   - receiver: The receiver's name, shared by its replicas.
    ///   - lease: How long a claim holds (2 minutes).
    ///   - retention: How long handled events are remembered (7 days).
    public init(
        database: PostgresDatabase,
        receiver: String = "default",
        lease: Duration = .seconds(120),
        retention: Duration = .seconds(7 * 24 * 3600)
    ) {
        self.database = database
        self.receiver = receiver
        self.lease = lease
        self.retention = retention
    }

    /// The receiver and database.
    public var description: String { "PostgresDeliveryLedger(\(receiver) in \(database))" }

    /// Claims `id` when it is new or its last claim's lease ran out.
    ///
    /// - Throws: ``APIError/network(_:)`` when the database cannot be reached.
    public func claim(_ id: WebhookEventID) async throws -> WebhookClaimOutcome {
        try await database.prepare()
        let token = UUID().uuidString
        let key = Self.key(id)
        return try await database.withConnection("claim a webhook event") {
            [schema = database.schema, receiver, lease] connection in
            let claimed = try await connection.query(
                """
                INSERT INTO \(unescaped: schema).webhook_deliveries AS d
                    (receiver, event_id, state, claim_token, lease_until)
                VALUES (\(receiver), \(key), 'claimed', \(token), now() + make_interval(secs => \(lease.seconds)))
                ON CONFLICT (receiver, event_id) DO UPDATE
                    SET claim_token = excluded.claim_token, lease_until = excluded.lease_until, updated_at = now()
                    WHERE d.state = 'claimed' AND d.lease_until <= now()
                RETURNING 1
                """,
                logger: PostgresDatabase.quiet
            )
            for try await _ in claimed { return .claimed(WebhookClaim(eventID: id, token: token)) }
            let states = try await connection.query(
                """
                SELECT state FROM \(unescaped: schema).webhook_deliveries
                WHERE receiver = \(receiver) AND event_id = \(key)
                """,
                logger: PostgresDatabase.quiet
            )
            for try await state in states.decode(String.self) {
                return state == "handled" ? .alreadyHandled : .inFlightElsewhere
            }
            // Released between the two statements: the sender's next delivery claims it.
            return .inFlightElsewhere
        }
    }

    /// A quarter of the lease, so that two renewals can fail (each waiting up to the database's
    /// connect timeout) and a third still lands before the claim runs out; `nil` for a lease of
    /// zero, whose claims have run out by the next statement anyway.
    public var renewalInterval: Duration? { lease > .zero ? lease / 4 : nil }

    /// Extends the claim's lease from now, on the server's clock.
    ///
    /// - Returns: `false` when another replica has taken the event over, or it was handled.
    /// - Throws: ``APIError/network(_:)`` when the database cannot be reached.
    public func renew(_ claim: WebhookClaim) async throws -> Bool {
        try await database.prepare()
        let key = Self.key(claim.eventID)
        return try await database.withConnection("renew a webhook claim") {
            [schema = database.schema, receiver, lease] connection in
            let renewed = try await connection.query(
                """
                UPDATE \(unescaped: schema).webhook_deliveries
                SET lease_until = now() + make_interval(secs => \(lease.seconds)), updated_at = now()
                WHERE receiver = \(receiver) AND event_id = \(key)
                    AND state = 'claimed' AND claim_token = \(claim.token)
                RETURNING 1
                """,
                logger: PostgresDatabase.quiet
            )
            for try await _ in renewed { return true }
            return false
        }
    }

    /// Records the event as handled, and forgets the receiver's events older than
    /// ``retention`` in the same statement.
    ///
    /// - Throws: ``APIError/network(_:)`` when the database cannot be reached.
    public func markHandled(_ claim: WebhookClaim) async throws {
        try await database.prepare()
        let key = Self.key(claim.eventID)
        try await database.withConnection("record a handled webhook event") {
            [schema = database.schema, receiver, retention] connection in
            try await connection.run(
                """
                WITH pruned AS (
                    DELETE FROM \(unescaped: schema).webhook_deliveries
                    WHERE receiver = \(receiver) AND event_id <> \(key)
                        AND updated_at < now() - make_interval(secs => \(retention.seconds))
                )
                INSERT INTO \(unescaped: schema).webhook_deliveries AS d
                    (receiver, event_id, state, claim_token, lease_until)
                VALUES (\(receiver), \(key), 'handled', \(claim.token), now())
                ON CONFLICT (receiver, event_id) DO UPDATE SET state = 'handled', updated_at = now()
                """,
                logger: PostgresDatabase.quiet
            )
        }
    }

    /// Deletes the claim, unless another replica has taken the event over or it was handled.
    ///
    /// - Throws: ``APIError/network(_:)`` when the database cannot be reached.
    public func release(_ claim: WebhookClaim) async throws {
        try await database.prepare()
        let key = Self.key(claim.eventID)
        try await database.withConnection("release a webhook event") {
            [schema = database.schema, receiver] connection in
            try await connection.run(
                """
                DELETE FROM \(unescaped: schema).webhook_deliveries
                WHERE receiver = \(receiver) AND event_id = \(key)
                    AND state = 'claimed' AND claim_token = \(claim.token)
                """,
                logger: PostgresDatabase.quiet
            )
        }
    }

    /// Forgets the receiver's events (handled, or claimed and abandoned) older than
    /// ``retention``; ``markHandled(_:)`` does it too, so call this only to prune a quiet
    /// receiver.
    ///
    /// - Returns: How many events were forgotten.
    /// - Throws: ``APIError/network(_:)`` when the database cannot be reached.
    @discardableResult
    public func prune() async throws -> Int {
        try await database.prepare()
        return try await database.withConnection("prune webhook events") {
            [schema = database.schema, receiver, retention] connection in
            let rows = try await connection.query(
                """
                DELETE FROM \(unescaped: schema).webhook_deliveries
                WHERE receiver = \(receiver) AND updated_at < now() - make_interval(secs => \(retention.seconds))
                RETURNING 1
                """,
                logger: PostgresDatabase.quiet
            )
            var count = 0
            for try await _ in rows { count += 1 }
            return count
        }
    }

    /// The id as stored: its kind and text, so the number 7 and the string "7" stay apart.
    static func key(_ id: WebhookEventID) -> String {
        switch id {
        case .integer(let value): return "i:\(value)"
        case .string(let value): return "s:\(value)"
        }
    }
}
