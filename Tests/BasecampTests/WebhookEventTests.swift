import Basecamp
import Foundation
import HTTPCoreWebhooks
import HTTPTypes
import Testing

@Suite struct WebhookEventTests {
    static let example = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Spec/Basecamp/examples/WebhookEvent.json")

    @Test func theSpecExampleDecodesWithAnExactIdAndAKnownKind() throws {
        let event = try BasecampWebhooks.decodeEvent(Data(contentsOf: Self.example))
        #expect(event.id == 9_007_199_254_740_993)
        #expect(event.webhookEventID == .integer(9_007_199_254_740_993))
        #expect(event.kind == .todoCreated)
        #expect(event.webhookEventKind == "todo_created")
        #expect(event.recording?.title == "Draft the launch announcement")
        #expect(event.recording?.bucket.name == "The Leto Laptop")
        #expect(event.creator?.name == "Victor Cooper")
    }

    @Test func anUnknownKindIsKeptAsText() throws {
        let body = Data(#"{"id":5,"kind":"hill_chart_moved"}"#.utf8)
        let event = try BasecampWebhooks.decodeEvent(body)
        #expect(event.kind == .unknown("hill_chart_moved"))
        #expect(event.webhookEventKind == "hill_chart_moved")
        let again = try BasecampWebhooks.decodeEvent(JSONEncoder().encode(event))
        #expect(again.kind == .unknown("hill_chart_moved"))
    }

    @Test("An id sent as a string of digits is the same event as the integer: decoded exactly, and deduplicated")
    func aStringIdIsTheSameEvent() async throws {
        let secret = "basecamp-webhook-secret"
        var receiver = BasecampWebhooks.receiver(secret: secret)
        receiver.on("todo_*") { _, _ in }
        var outcomes: [WebhookResult] = []
        for id in [#""9007199254740993""#, "9007199254740993"] {
            let body = Data(#"{"id":\#(id),"kind":"todo_created"}"#.utf8)
            #expect(try BasecampWebhooks.decodeEvent(body).id == 9_007_199_254_740_993)
            var headers = HTTPFields()
            headers[BasecampWebhooks.signatureHeader] = BasecampWebhooks.signature(secret: secret).signature(for: body)
            outcomes.append(await receiver.receive(body: body, headers: headers))
        }
        let id = WebhookEventID.integer(9_007_199_254_740_993)
        #expect(outcomes == [.handled(id: id, kind: "todo_created"), .duplicate(id: id, kind: "todo_created")])
    }

    @Test func aFractionalIdIsNotAnEvent() {
        #expect(throws: DecodingError.self) {
            try BasecampWebhooks.decodeEvent(Data(#"{"id":1.5,"kind":"todo_created"}"#.utf8))
        }
    }

    @Test func theReceiverVerifiesTheBasecampHeaderAndRoutesTypedEvents() async throws {
        let secret = "basecamp-webhook-secret"
        var receiver = BasecampWebhooks.receiver(secret: secret)
        let titles = Titles()
        receiver.on("todo_*") { event, _ in await titles.append(event.recording?.title ?? "") }
        let body = try Data(contentsOf: Self.example)
        var headers = HTTPFields()
        headers[BasecampWebhooks.signatureHeader] = BasecampWebhooks.signature(secret: secret).signature(for: body)
        #expect(BasecampWebhooks.signatureHeader.canonicalName == "x-basecamp-signature")
        #expect(
            await receiver.receive(body: body, headers: headers)
                == .handled(id: .integer(9_007_199_254_740_993), kind: "todo_created")
        )
        #expect(await titles.values == ["Draft the launch announcement"])
    }
}

actor Titles {
    private(set) var values: [String] = []

    func append(_ title: String) { values.append(title) }
}
