import Foundation
import HTTPCore
import HTTPCoreWebhooks
import HTTPTypes
import PostgresTesting
import Testing

@testable import HTTPCorePostgres

@Suite("Postgres: webhook delivery ledger", PostgresTestServer.trait, .timeLimit(.minutes(2)))
struct PostgresDeliveryLedgerTests {
    private func ledgers(
        _ pools: [PostgresDatabase],
        lease: Duration = .seconds(120),
        retention: Duration = .seconds(3600)
    ) -> [PostgresDeliveryLedger] {
        let receiver = PostgresTestServer.uniqueKey("receiver")
        return pools.map {
            PostgresDeliveryLedger(database: $0, receiver: receiver, lease: lease, retention: retention)
        }
    }

    private func claimed(_ outcome: WebhookClaimOutcome) throws -> WebhookClaim {
        guard case .claimed(let claim) = outcome else {
            Issue.record("expected a claim, got \(outcome)")
            throw CancellationError()
        }
        return claim
    }

    @Test("One replica claims; another sees it in flight, then handled; a release lets it be claimed again")
    func claimLifecycle() async throws {
        try await PostgresTestServer.withDatabases(2) { pools in
            let ledgers = ledgers(pools)
            let first = try claimed(try await ledgers[0].claim(.integer(1)))
            #expect(try await ledgers[1].claim(.integer(1)) == .inFlightElsewhere)
            #expect(try await ledgers[0].claim(.integer(1)) == .inFlightElsewhere)
            try await ledgers[0].release(first)
            let second = try claimed(try await ledgers[1].claim(.integer(1)))
            #expect(second.token != first.token)
            try await ledgers[1].markHandled(second)
            #expect(try await ledgers[0].claim(.integer(1)) == .alreadyHandled)
            #expect(try await ledgers[1].claim(.integer(1)) == .alreadyHandled)
            // The number 1 and the string "1" are different events.
            _ = try claimed(try await ledgers[0].claim(.string("1")))
        }
    }

    @Test("A crashed replica's claim is taken over once its lease ran out; its late release is ignored")
    func crashedClaimTakenOver() async throws {
        try await PostgresTestServer.withDatabases(2) { pools in
            let crashing = ledgers(pools, lease: .zero)
            let crashed = try claimed(try await crashing[0].claim(.string("evt")))
            // A lease of zero has run out by the next statement: no waiting in the test.
            let healthy = PostgresDeliveryLedger(database: pools[1], receiver: crashing[0].receiver)
            let takeover = try claimed(try await healthy.claim(.string("evt")))
            #expect(takeover.token != crashed.token)
            try await crashing[0].release(crashed)
            #expect(try await healthy.claim(.string("evt")) == .inFlightElsewhere)
            try await healthy.markHandled(takeover)
            #expect(try await crashing[0].claim(.string("evt")) == .alreadyHandled)
        }
    }

    @Test("A renewed claim outlives its first lease; renewing a claim taken over or handled says it was lost")
    func renewal() async throws {
        try await PostgresTestServer.withDatabases(2) { pools in
            // A lease of zero has run out by the next statement; renewing with a long one keeps it.
            let short = ledgers(pools, lease: .zero)[0]
            let long = PostgresDeliveryLedger(database: pools[0], receiver: short.receiver)
            let other = PostgresDeliveryLedger(database: pools[1], receiver: short.receiver)
            #expect(long.renewalInterval == .seconds(30))
            #expect(short.renewalInterval == nil)

            let held = try claimed(try await short.claim(.integer(5)))
            #expect(try await long.renew(held))
            #expect(try await other.claim(.integer(5)) == .inFlightElsewhere)

            let lost = try claimed(try await short.claim(.integer(6)))
            let takeover = try claimed(try await other.claim(.integer(6)))
            #expect(try await long.renew(lost) == false)
            #expect(try await other.renew(takeover))
            try await other.markHandled(takeover)
            #expect(try await other.renew(takeover) == false)
        }
    }

    @Test("Handled events older than the retention are forgotten by the next record and by prune()")
    func retention() async throws {
        try await PostgresTestServer.withDatabases(1) { pools in
            let ledger = ledgers(pools, retention: .zero)[0]
            try await ledger.markHandled(try claimed(try await ledger.claim(.integer(1))))
            #expect(try await ledger.claim(.integer(1)) == .alreadyHandled)
            try await ledger.markHandled(try claimed(try await ledger.claim(.integer(2))))
            // Recording 2 pruned 1: it is new again.
            _ = try claimed(try await ledger.claim(.integer(1)))
            #expect(try await ledger.prune() == 2)
            #expect(try await ledger.prune() == 0)
        }
    }

    @Test("Two receivers sharing the ledger: an event is handled once; its copy is answered 503, then duplicate")
    func dedupeAcrossReceivers() async throws {
        try await PostgresTestServer.withDatabases(2) { pools in
            let ledgers = ledgers(pools)
            let runs = Locked(0)
            let inHandler = AsyncStream<Void>.makeStream()
            let release = AsyncStream<Void>.makeStream()
            let receivers = ledgers.map { ledger in
                var receiver = WebhookReceiver<GenericWebhookEvent>(signature: nil, ledger: ledger)
                receiver.onAny { _, _ in
                    runs.withLock { $0 += 1 }
                    inHandler.continuation.yield()
                    for await _ in release.stream { break }
                }
                return receiver
            }
            let body = Data(#"{"id": 42, "kind": "todo_created"}"#.utf8)
            let first = Task { await receivers[0].receive(body: body, headers: HTTPFields()) }
            for await _ in inHandler.stream { break }
            let copy = await receivers[1].receive(body: body, headers: HTTPFields())
            #expect(copy == .inFlight(id: .integer(42), kind: "todo_created"))
            #expect(copy.statusCode == 503)
            release.continuation.yield()
            #expect(await first.value == .handled(id: .integer(42), kind: "todo_created"))
            let redelivery = await receivers[1].receive(body: body, headers: HTTPFields())
            #expect(redelivery == .duplicate(id: .integer(42), kind: "todo_created"))
            #expect(runs.withLock { $0 } == 1)
        }
    }
}
