import Foundation
import HTTPCore
import HTTPTypes
import Testing

@testable import HTTPCoreWebhooks

/// A ledger that answers as told and records what the receiver asked of it.
actor ScriptedLedger: WebhookDeliveryLedger {
    enum Failure: Error { case down }

    var outcome: WebhookClaimOutcome?
    var failsToRecord = false
    nonisolated let renewalInterval: Duration?
    /// Whether renewing says the claim was lost, as after another receiver took the event over.
    nonisolated let claimLost: Bool
    private(set) var calls: [String] = []

    init(
        outcome: WebhookClaimOutcome?,
        failsToRecord: Bool = false,
        renewalInterval: Duration? = nil,
        claimLost: Bool = false
    ) {
        self.outcome = outcome
        self.failsToRecord = failsToRecord
        self.renewalInterval = renewalInterval
        self.claimLost = claimLost
    }

    func renew(_ claim: WebhookClaim) -> Bool {
        calls.append("renew \(claim.eventID) \(claim.token)")
        return !claimLost
    }

    var renewals: Int { calls.filter { $0.hasPrefix("renew") }.count }

    func claim(_ id: WebhookEventID) throws -> WebhookClaimOutcome {
        calls.append("claim \(id)")
        guard let outcome else { throw Failure.down }
        return outcome
    }

    func markHandled(_ claim: WebhookClaim) throws {
        calls.append("handled \(claim.eventID) \(claim.token)")
        if failsToRecord { throw Failure.down }
    }

    func release(_ claim: WebhookClaim) throws {
        calls.append("release \(claim.eventID) \(claim.token)")
        if failsToRecord { throw Failure.down }
    }
}

@Suite("Webhooks: the receiver's delivery ledger")
struct WebhookLedgerTests {
    let deliveries = Deliveries()

    private func receiver(
        _ ledger: any WebhookDeliveryLedger,
        _ recorder: Recorder,
        fails: Bool = false
    )
        -> WebhookReceiver<GenericWebhookEvent>
    {
        var receiver = WebhookReceiver<GenericWebhookEvent>(signature: deliveries.signature, ledger: ledger)
        receiver.onAny { event, _ in
            await recorder.record(event.kind)
            if fails { throw HandlerFailure() }
        }
        return receiver
    }

    @Test("An event in flight on another replica is answered 503 without running the handlers")
    func inFlightElsewhere() async {
        let recorder = Recorder()
        let ledger = ScriptedLedger(outcome: .inFlightElsewhere)
        let result = await receiver(ledger, recorder).deliver(deliveries.body(id: "7", kind: "a"), deliveries)
        #expect(result == .inFlight(id: .integer(7), kind: "a"))
        #expect(result.statusCode == 503)
        #expect(!result.isAccepted)
        #expect(await recorder.entries.isEmpty)
        #expect(await ledger.calls == ["claim 7"])
    }

    @Test("An event handled elsewhere is a duplicate")
    func handledElsewhere() async {
        let recorder = Recorder()
        let ledger = ScriptedLedger(outcome: .alreadyHandled)
        let result = await receiver(ledger, recorder).deliver(deliveries.body(id: "7", kind: "a"), deliveries)
        #expect(result == .duplicate(id: .integer(7), kind: "a"))
        #expect(await recorder.entries.isEmpty)
    }

    @Test("A ledger that cannot be reached fails the delivery (500) without running the handlers")
    func ledgerDown() async {
        let recorder = Recorder()
        let result = await receiver(ScriptedLedger(outcome: nil), recorder)
            .deliver(deliveries.body(id: "7", kind: "a"), deliveries)
        #expect(result.statusCode == 500)
        #expect(result.responseText == "handler failed; retry later")
        #expect(await recorder.entries.isEmpty)
    }

    @Test("The claim is marked handled after success and released after failure, with its token")
    func finishesTheClaim() async {
        let recorder = Recorder()
        let claim = WebhookClaim(eventID: .integer(7), token: "t-1")
        let ok = ScriptedLedger(outcome: .claimed(claim))
        #expect(await receiver(ok, recorder).deliver(deliveries.body(id: "7", kind: "a"), deliveries).statusCode == 200)
        #expect(await ok.calls == ["claim 7", "handled 7 t-1"])

        let failing = ScriptedLedger(outcome: .claimed(claim))
        let result = await receiver(failing, recorder, fails: true)
            .deliver(deliveries.body(id: "7", kind: "a"), deliveries)
        #expect(result.statusCode == 500)
        #expect(await failing.calls == ["claim 7", "release 7 t-1"])
    }

    @Test("While the handlers run the claim is renewed at the ledger's interval; renewals stop before the record")
    func renewsWhileHandling() async throws {
        let claim = WebhookClaim(eventID: .integer(7), token: "t-1")
        let ledger = ScriptedLedger(outcome: .claimed(claim), renewalInterval: .milliseconds(2))
        var receiver = WebhookReceiver<GenericWebhookEvent>(signature: deliveries.signature, ledger: ledger)
        // A handler slower than two intervals: it ends once the ledger has seen two renewals.
        receiver.onAny { _, _ in
            while await ledger.renewals < 2 { try await Task.sleep(for: .milliseconds(1)) }
        }
        let result = await receiver.deliver(deliveries.body(id: "7", kind: "a"), deliveries)
        #expect(result == .handled(id: .integer(7), kind: "a"))
        let calls = await ledger.calls
        #expect(calls.first == "claim 7")
        #expect(calls.dropFirst().dropLast().allSatisfy { $0 == "renew 7 t-1" })
        #expect(calls.last == "handled 7 t-1", "no renewal after the record")
        #expect(await ledger.renewals >= 2)
    }

    @Test("A renewal that finds the claim lost cancels the handlers; the event is neither recorded nor released")
    func lostClaimCancelsHandlers() async throws {
        let claim = WebhookClaim(eventID: .integer(7), token: "t-1")
        let ledger = ScriptedLedger(outcome: .claimed(claim), renewalInterval: .milliseconds(2), claimLost: true)
        var receiver = WebhookReceiver<GenericWebhookEvent>(signature: deliveries.signature, ledger: ledger)
        // A handler that would run for a minute unless cancelled.
        receiver.onAny { _, _ in try await Task.sleep(for: .seconds(60)) }
        let started = ContinuousClock.now
        let result = await receiver.deliver(deliveries.body(id: "7", kind: "a"), deliveries)
        #expect(ContinuousClock.now - started < .seconds(30))
        guard case .handlerFailed(let id, _, let reason) = result else {
            Issue.record("expected handlerFailed, got \(result)")
            return
        }
        #expect(id == .integer(7))
        #expect(reason.contains("another receiver took the event over"))
        #expect(result.statusCode == 500)
        #expect(await ledger.calls == ["claim 7", "renew 7 t-1"])
    }

    @Test("Handlers that succeeded are reported handled even when the record fails")
    func recordFails() async {
        let recorder = Recorder()
        let claim = WebhookClaim(eventID: .integer(7), token: "t-1")
        let ledger = ScriptedLedger(outcome: .claimed(claim), failsToRecord: true)
        let result = await receiver(ledger, recorder).deliver(deliveries.body(id: "7", kind: "a"), deliveries)
        #expect(result == .handled(id: .integer(7), kind: "a"))
        #expect(await recorder.count("a") == 1)
    }

    @Test("The in-memory ledger: a released claim is claimed again, a handled event is a duplicate")
    func inMemoryReclaims() async {
        let ledger = InMemoryDeliveryLedger(capacity: 2)
        guard case .claimed(let first) = await ledger.claim(.string("e")) else {
            Issue.record("the first claim was refused")
            return
        }
        let second = Task { await ledger.claim(.string("e")) }
        await ledger.release(first)
        guard case .claimed(let retaken) = await second.value else {
            Issue.record("the waiter did not take the released claim over")
            return
        }
        await ledger.markHandled(retaken)
        #expect(await ledger.claim(.string("e")) == .alreadyHandled)
        #expect(await ledger.isHandled(.string("e")))
    }
}
