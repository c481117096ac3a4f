import Foundation
import HTTPCore
import HTTPTypes
import Testing

@testable import HTTPCoreWebhooks

@Suite struct WebhookReceiverTests {
    let deliveries = Deliveries()

    @Test func aSignedEventIsHandledAndItsHandlersRun() async {
        let recorder = Recorder()
        var receiver = deliveries.receiver()
        receiver.on("todo_created") { event, context in
            await recorder.record("\(event.kind) \(context.eventID.map(String.init(describing:)) ?? "-")")
        }
        let result = await receiver.deliver(deliveries.body(id: "1", kind: "todo_created"), deliveries)
        #expect(result == .handled(id: .integer(1), kind: "todo_created"))
        #expect(result.statusCode == 200)
        #expect(await recorder.entries == ["todo_created 1"])
    }

    @Test func unsignedAndBadlySignedDeliveriesAreRefusedBeforeParsing() async {
        let recorder = Recorder()
        var receiver = deliveries.receiver()
        receiver.onAny { event, _ in await recorder.record(event.kind) }
        let body = deliveries.body(id: "1", kind: "todo_created")

        let unsigned = await receiver.receive(body: body, headers: HTTPFields())
        #expect(unsigned == .unsigned)
        #expect(unsigned.statusCode == 401)

        var forged = HTTPFields()
        forged[.webhookSignature] = Deliveries(secret: "another").signature.signature(for: body)
        let bad = await receiver.receive(body: body, headers: forged)
        #expect(bad == .badSignature)
        #expect(bad.statusCode == 403)

        let tampered = await receiver.receive(
            body: deliveries.body(id: "1", kind: "todo_trashed"),
            headers: deliveries.headers(for: body)
        )
        #expect(tampered == .badSignature)
        #expect(await recorder.entries.isEmpty)
    }

    @Test func anEmptySecretRefusesEveryDelivery() async {
        let receiver = Deliveries(secret: "").receiver()
        let body = deliveries.body(id: "1", kind: "todo_created")
        #expect(await receiver.receive(body: body, headers: deliveries.headers(for: body)) == .badSignature)
    }

    @Test func theSizeCapIsEnforcedBeforeAnythingElse() async {
        let recorder = Recorder()
        let body = deliveries.body(id: "1", kind: "todo_created")
        var receiver = deliveries.receiver(maxBodySize: body.count)
        receiver.onAny { event, _ in await recorder.record(event.kind) }
        #expect(await receiver.deliver(body, deliveries) == .handled(id: .integer(1), kind: "todo_created"))

        let larger = deliveries.body(id: "2", kind: "todo_created", extra: #","x":1"#)
        let result = await receiver.deliver(larger, deliveries)
        #expect(result == .tooLarge(limit: body.count))
        #expect(result.statusCode == 413)
        #expect(await receiver.receive(body: larger, headers: HTTPFields()) == .tooLarge(limit: body.count))
        #expect(await recorder.entries == ["todo_created"])
    }

    @Test(arguments: [
        "not json",
        "[1, 2]",
        #"{"id": 1.5, "kind": "todo_created"}"#,
        #"{"id": true, "kind": "todo_created"}"#,
        #"{"id": 18446744073709551616, "kind": "todo_created"}"#,
        #"{"id": 1, "kind": 7}"#,
        "",
    ])
    func malformedBodiesAre400(_ text: String) async {
        let recorder = Recorder()
        var receiver = deliveries.receiver()
        receiver.onAny { event, _ in await recorder.record(event.kind) }
        let result = await receiver.deliver(Data(text.utf8), deliveries)
        guard case .malformed = result else {
            Issue.record("expected malformed, got \(result)")
            return
        }
        #expect(result.statusCode == 400)
        #expect(await recorder.entries.isEmpty)
    }

    @Test func largeIntegerAndStringIdsAreKeptExactly() async {
        let receiver = deliveries.receiver()
        // 2^53 + 1 is not representable as a Double; read as one, it would equal 2^53.
        let big = await receiver.deliver(deliveries.body(id: "9007199254740993", kind: "a"), deliveries)
        #expect(big == .handled(id: .integer(9_007_199_254_740_993), kind: "a"))
        let neighbour = await receiver.deliver(deliveries.body(id: "9007199254740992", kind: "a"), deliveries)
        #expect(neighbour == .handled(id: .integer(9_007_199_254_740_992), kind: "a"))
        let text = await receiver.deliver(deliveries.body(id: #""evt_1""#, kind: "a"), deliveries)
        #expect(text == .handled(id: .string("evt_1"), kind: "a"))
        let number = await receiver.deliver(deliveries.body(id: "1", kind: "a"), deliveries)
        #expect(number == .handled(id: .integer(1), kind: "a"), "the string \"1\" and the number 1 are different ids")
    }

    @Test func aRedeliveryOfAHandledEventIsADuplicateAndHandlersDoNotRun() async {
        let recorder = Recorder()
        var receiver = deliveries.receiver()
        receiver.onAny { event, _ in await recorder.record(event.kind) }
        let body = deliveries.body(id: "42", kind: "todo_completed")
        #expect(await receiver.deliver(body, deliveries) == .handled(id: .integer(42), kind: "todo_completed"))
        let again = await receiver.deliver(body, deliveries)
        #expect(again == .duplicate(id: .integer(42), kind: "todo_completed"))
        #expect(again.statusCode == 200)
        #expect(await recorder.count("todo_completed") == 1)
    }

    @Test func oneHundredConcurrentDeliveriesOfOneIdRunTheHandlersOnce() async {
        let recorder = Recorder()
        var receiver = deliveries.receiver()
        receiver.onAny { event, _ in
            await recorder.record(event.kind)
            // Let the other deliveries arrive while this one is still in its handler.
            for _ in 0..<10 { await Task.yield() }
        }
        let body = deliveries.body(id: "7", kind: "todo_created")
        let shared = receiver
        let results = await withTaskGroup(of: WebhookResult.self) { group in
            for _ in 0..<100 { group.addTask { await shared.deliver(body, deliveries) } }
            return await group.reduce(into: [WebhookResult]()) { $0.append($1) }
        }
        #expect(results.count == 100)
        #expect(results.filter { $0 == .handled(id: .integer(7), kind: "todo_created") }.count == 1)
        #expect(results.filter { $0 == .duplicate(id: .integer(7), kind: "todo_created") }.count == 99)
        #expect(await recorder.count("todo_created") == 1)
    }

    @Test func aFailingHandlerAnswers500AndTheRedeliveryRunsAgain() async {
        let recorder = Recorder()
        let failures = Recorder()
        var receiver = deliveries.receiver()
        receiver.on("todo_*") { event, _ in
            await recorder.record(event.kind)
            if await failures.entries.isEmpty {
                await failures.record("failed")
                throw HandlerFailure()
            }
        }
        let body = deliveries.body(id: "9", kind: "todo_created")
        let first = await receiver.deliver(body, deliveries)
        #expect(first == .handlerFailed(id: .integer(9), kind: "todo_created", reason: "the database is down"))
        #expect(first.statusCode == 500)
        #expect(!first.responseText.contains("database"), "a handler's reason stays out of the response")

        #expect(await receiver.deliver(body, deliveries) == .handled(id: .integer(9), kind: "todo_created"))
        #expect(await receiver.deliver(body, deliveries) == .duplicate(id: .integer(9), kind: "todo_created"))
        #expect(await recorder.count("todo_created") == 2)
    }

    @Test func deliveriesWaitingOnAFailedOneRunTheHandlersThemselves() async {
        let recorder = Recorder()
        var receiver = deliveries.receiver()
        receiver.onAny { event, _ in
            await recorder.record("run")
            for _ in 0..<10 { await Task.yield() }
            if await recorder.count("run") == 1 { throw HandlerFailure() }
        }
        let body = deliveries.body(id: "5", kind: "todo_created")
        let shared = receiver
        let results = await withTaskGroup(of: WebhookResult.self) { group in
            for _ in 0..<20 { group.addTask { await shared.deliver(body, deliveries) } }
            return await group.reduce(into: [WebhookResult]()) { $0.append($1) }
        }
        let failed = results.filter { $0.statusCode == 500 }.count
        let handled = results.filter { $0 == .handled(id: .integer(5), kind: "todo_created") }.count
        #expect(handled == 1)
        let runs = await recorder.count("run")
        #expect(failed + handled == runs)
        #expect(results.allSatisfy { $0.statusCode == 200 || $0.statusCode == 500 })
    }

    @Test func theDedupeWindowIsBounded() async {
        let recorder = Recorder()
        var receiver = deliveries.receiver(dedupeWindow: 2)
        receiver.onAny { event, context in await recorder.record(context.eventID?.description ?? "") }
        for id in ["1", "2", "3"] {
            #expect(await receiver.deliver(deliveries.body(id: id, kind: "a"), deliveries).isAccepted)
        }
        #expect(
            await receiver.deliver(deliveries.body(id: "3", kind: "a"), deliveries)
                == .duplicate(id: .integer(3), kind: "a")
        )
        #expect(
            await receiver.deliver(deliveries.body(id: "1", kind: "a"), deliveries)
                == .handled(id: .integer(1), kind: "a")
        )
        #expect(await recorder.entries == ["1", "2", "3", "1"])
    }

    @Test func eventsWithoutAnIdAreNeverDuplicates() async {
        let recorder = Recorder()
        var receiver = deliveries.receiver()
        receiver.onAny { event, _ in await recorder.record(event.kind) }
        let body = Data(#"{"kind":"ping"}"#.utf8)
        #expect(await receiver.deliver(body, deliveries) == .handled(id: nil, kind: "ping"))
        #expect(await receiver.deliver(body, deliveries) == .handled(id: nil, kind: "ping"))
        #expect(await recorder.count("ping") == 2)
    }

    @Test func anUnsignedReceiverAcceptsUnsignedDeliveries() async {
        let receiver = WebhookReceiver<GenericWebhookEvent>(signature: nil)
        let body = deliveries.body(id: "1", kind: "a")
        #expect(await receiver.receive(body: body, headers: HTTPFields()) == .handled(id: .integer(1), kind: "a"))
    }
}
