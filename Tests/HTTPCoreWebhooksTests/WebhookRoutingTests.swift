import Foundation
import HTTPTypes
import Testing

@testable import HTTPCoreWebhooks

@Suite struct WebhookRoutingTests {
    let deliveries = Deliveries()

    func routedReceiver(_ recorder: Recorder) -> WebhookReceiver<GenericWebhookEvent> {
        var receiver = deliveries.receiver()
        receiver.on("todo_*") { event, _ in await recorder.record("todo_* " + event.kind) }
        receiver.on("*_created") { event, _ in await recorder.record("*_created " + event.kind) }
        receiver.on("message_created", "comment_created") { event, _ in await recorder.record("list " + event.kind) }
        receiver.onAny { event, _ in await recorder.record("any " + event.kind) }
        return receiver
    }

    @Test func globsRouteEachKindToEveryMatchingHandlerInOrder() async {
        let recorder = Recorder()
        let receiver = routedReceiver(recorder)
        for (id, kind) in [(1, "todo_created"), (2, "todo_completed"), (3, "comment_created"), (4, "vault_trashed")] {
            #expect(await receiver.deliver(deliveries.body(id: String(id), kind: kind), deliveries).isAccepted)
        }
        #expect(
            await recorder.entries == [
                "todo_* todo_created", "*_created todo_created", "any todo_created",
                "todo_* todo_completed", "any todo_completed",
                "*_created comment_created", "list comment_created", "any comment_created",
                "any vault_trashed",
            ]
        )
        #expect(receiver.hasHandler(for: "todolist_created"))
    }

    @Test func anEventNoHandlerMatchesIsStillHandled() async {
        var receiver = deliveries.receiver()
        receiver.on("todo_*") { _, _ in throw HandlerFailure() }
        #expect(!receiver.hasHandler(for: "comment_created"))
        let result = await receiver.deliver(deliveries.body(id: "1", kind: "comment_created"), deliveries)
        #expect(result == .handled(id: .integer(1), kind: "comment_created"))
    }

    struct Tag: WebhookMiddleware {
        let name: String
        let recorder: Recorder

        func intercept<Event: WebhookEventPayload>(
            _ event: Event,
            context: WebhookContext,
            next: WebhookNext<Event>
        ) async throws {
            await recorder.record("\(name) before")
            try await next(event, context)
            await recorder.record("\(name) after")
        }
    }

    struct DropPings: WebhookMiddleware {
        func intercept<Event: WebhookEventPayload>(
            _ event: Event,
            context: WebhookContext,
            next: WebhookNext<Event>
        ) async throws {
            guard context.kind != "ping" else { return }
            try await next(event, context)
        }
    }

    @Test func middlewaresWrapTheHandlersFirstAddedOutermost() async {
        let recorder = Recorder()
        var receiver = deliveries.receiver()
        receiver.use(Tag(name: "outer", recorder: recorder))
        receiver.use(Tag(name: "inner", recorder: recorder))
        receiver.use(DropPings())
        receiver.onAny { event, _ in await recorder.record("handler " + event.kind) }
        #expect(await receiver.deliver(deliveries.body(id: "1", kind: "todo_created"), deliveries).isAccepted)
        #expect(await receiver.deliver(deliveries.body(id: "2", kind: "ping"), deliveries).isAccepted)
        #expect(
            await recorder.entries == [
                "outer before", "inner before", "handler todo_created", "inner after", "outer after",
                "outer before", "inner before", "inner after", "outer after",
            ]
        )
    }

    struct Refuse: WebhookMiddleware {
        func intercept<Event: WebhookEventPayload>(
            _ event: Event,
            context: WebhookContext,
            next: WebhookNext<Event>
        ) async throws {
            throw HandlerFailure()
        }
    }

    @Test func aThrowingMiddlewareFailsTheDeliverySoItComesAgain() async {
        let recorder = Recorder()
        var receiver = deliveries.receiver()
        receiver.use(Refuse())
        receiver.onAny { event, _ in await recorder.record(event.kind) }
        let body = deliveries.body(id: "1", kind: "todo_created")
        #expect(await receiver.deliver(body, deliveries).statusCode == 500)
        #expect(await receiver.deliver(body, deliveries).statusCode == 500)
        #expect(await recorder.entries.isEmpty)
    }
}
