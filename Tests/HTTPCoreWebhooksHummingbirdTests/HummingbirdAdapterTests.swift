import APISandbox
import Basecamp
import Foundation
import HTTPCore
import HTTPCoreWebhooks
import HTTPCoreWebhooksHummingbird
import HTTPTypes
import Hummingbird
import Testing

/// Mounts a receiver at `/hooks` on the loopback sandbox's router.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ReceiverModule<Event: WebhookEventPayload>: SandboxModule {
    let receiver: WebhookReceiver<Event>
    let results: ResultLog

    func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        router.webhooks("/hooks", receiver: receiver) { await results.append($0) }
    }
}

actor ResultLog {
    private(set) var results: [WebhookResult] = []
    private(set) var titles: [String] = []

    func append(_ result: WebhookResult) { results.append(result) }
    func appendTitle(_ title: String) { titles.append(title) }
}

@Suite struct HummingbirdAdapterTests {
    let secret = "adapter-test-secret"

    @available(macOS 14, iOS 17, tvOS 17, *)
    func post(_ body: Data, signature: String?, to sandbox: Sandbox) async throws -> (Int, String) {
        var request = HTTPRequest(
            method: .post,
            scheme: "http",
            authority: "127.0.0.1:\(sandbox.port)",
            path: "/hooks"
        )
        request.headerFields[.contentType] = "application/json"
        if let signature { request.headerFields[BasecampWebhooks.signatureHeader] = signature }
        let response = try await URLSessionTransport().send(request, body: body, options: TransportOptions())
        return (response.response.status.code, String(decoding: response.body, as: UTF8.self))
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func aBasecampEventRoundTripsThroughARealServer() async throws {
        let log = ResultLog()
        var receiver = BasecampWebhooks.receiver(secret: secret, maxBodySize: 4096)
        receiver.on("todo_*") { event, _ in await log.appendTitle(event.recording?.title ?? "?") }
        let module = ReceiverModule(receiver: receiver, results: log)
        try await Sandbox.withRunning(configuration: .init(modules: [module])) { sandbox in
            let body = Data(
                #"{"id":9007199254740993,"kind":"todo_created","recording":{"id":1,"status":"active","visible_to_clients":false,"created_at":"2026-02-06T09:12:45Z","updated_at":"2026-02-06T09:12:45Z","title":"Ship it","inherits_status":true,"type":"Todo","url":"u","app_url":"a","bucket":{"id":2,"name":"P","type":"Project"},"creator":{"id":3,"name":"V"}}}"#
                    .utf8
            )
            let signature = BasecampWebhooks.signature(secret: secret).signature(for: body)

            let (handled, text) = try await post(body, signature: signature, to: sandbox)
            #expect(handled == 200)
            #expect(text.contains("handled todo_created 9007199254740993"))
            #expect(try await post(body, signature: signature, to: sandbox).0 == 200)
            #expect(try await post(body, signature: nil, to: sandbox).0 == 401)
            #expect(try await post(body, signature: String(repeating: "0", count: 64), to: sandbox).0 == 403)
            #expect(try await post(Data("{".utf8), signature: nil, to: sandbox).0 == 401)
            let junk = Data("[]".utf8)
            let junkSignature = BasecampWebhooks.signature(secret: secret).signature(for: junk)
            #expect(try await post(junk, signature: junkSignature, to: sandbox).0 == 400)
            let large = Data(repeating: UInt8(ascii: " "), count: 64 * 1024)
            let (tooLarge, _) = try await post(large, signature: signature, to: sandbox)
            #expect(tooLarge == 413)
        }
        #expect(await log.titles == ["Ship it"])
        let results = await log.results
        #expect(results.count == 7)
        #expect(results.first == .handled(id: .integer(9_007_199_254_740_993), kind: "todo_created"))
        #expect(results.dropFirst().first == .duplicate(id: .integer(9_007_199_254_740_993), kind: "todo_created"))
        #expect(results.last == .tooLarge(limit: 4096))
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func aFailingHandlerAnswers500AndTheRedeliveryIsHandled() async throws {
        let log = ResultLog()
        var receiver = BasecampWebhooks.receiver(secret: secret)
        receiver.onAny { _, _ in
            await log.appendTitle("run")
            if await log.titles.count == 1 { throw CancellationError() }
        }
        try await Sandbox.withRunning(configuration: .init(modules: [ReceiverModule(receiver: receiver, results: log)]))
        {
            sandbox in
            let body = Data(#"{"id":1,"kind":"comment_created"}"#.utf8)
            let signature = BasecampWebhooks.signature(secret: secret).signature(for: body)
            let (failed, text) = try await post(body, signature: signature, to: sandbox)
            #expect(failed == 500)
            #expect(!text.contains("Cancellation"))
            #expect(try await post(body, signature: signature, to: sandbox).0 == 200)
        }
        #expect(await log.titles == ["run", "run"])
    }
}
