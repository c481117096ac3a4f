import APISandbox
import Basecamp
import CLISupport
import Foundation
import HTTPCore
import HTTPTypes
import Hummingbird
import Testing

/// Records what `--forward` relays: bodies and their signature headers.
actor ForwardedDeliveries {
    private(set) var bodies: [String] = []
    private(set) var signatures: [String] = []

    func append(body: String, signature: String) {
        bodies.append(body)
        signatures.append(signature)
    }
}

/// An app at `/app` that accepts whatever is forwarded to it.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ForwardTarget: SandboxModule {
    let deliveries: ForwardedDeliveries

    func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        router.post("/app") { request, _ -> HTTPResponse.Status in
            var request = request
            let body = try await request.collectBody(upTo: 1 << 20)
            await deliveries.append(
                body: String(buffer: body),
                signature: request.headers[BasecampWebhooks.signatureHeader] ?? ""
            )
            return .noContent
        }
    }
}

@Suite("basecamp webhooks listen, as a process")
struct WebhooksListenTests {
    let secret = "listen-test-secret-0d9f"

    func event(id: Int, kind: String, title: String) -> Data {
        Data(
            #"{"id":\#(id),"kind":"\#(kind)","created_at":"2026-02-06T09:12:45Z","recording":{"id":1,"status":"active","visible_to_clients":false,"created_at":"2026-02-06T09:12:45Z","updated_at":"2026-02-06T09:12:45Z","title":"\#(title)","inherits_status":true,"type":"Todo","url":"u","app_url":"a","bucket":{"id":2,"name":"The Leto Laptop","type":"Project"},"creator":{"id":3,"name":"Victor Cooper"}},"creator":{"id":3,"name":"Victor Cooper"}}"#
                .utf8
        )
    }

    /// POSTs `body` to `url`, signed with `secret`; the status.
    func deliver(_ body: Data, to url: URL, secret: String) async throws -> Int {
        var request = HTTPRequest(
            method: .post,
            scheme: url.scheme,
            authority: url.host.map { "\($0):\(url.port ?? 80)" },
            path: url.path
        )
        request.headerFields[.contentType] = "application/json"
        request.headerFields[BasecampWebhooks.signatureHeader] = BasecampWebhooks.signature(secret: secret).signature(
            for: body
        )
        let response = try await URLSessionTransport().send(request, body: body, options: TransportOptions())
        return response.response.status.code
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("prints a line per event, reports a bad signature, and exits 0 on SIGINT")
    func readableLines() async throws {
        let listener = try ListenerProcess(
            arguments: ["webhooks", "listen", "--port", "0", "--path", "/hooks"],
            variables: ["BASECAMP_WEBHOOK_SECRET": secret, "TZ": "UTC"]
        )
        let url = try #require(try await listener.listeningURL(), "\(listener.stderr.text)")
        #expect(url.path == "/hooks")
        let created = event(id: 9_007_199_254_740_993, kind: "todo_created", title: "Draft the launch")
        #expect(try await deliver(created, to: url, secret: secret) == 200)
        #expect(try await deliver(created, to: url, secret: secret) == 200)
        #expect(
            try await deliver(event(id: 2, kind: "todo_completed", title: "Forged"), to: url, secret: "guess") == 403
        )
        #expect(
            try await deliver(event(id: 3, kind: "todo_completed", title: "Draft the launch"), to: url, secret: secret)
                == 200
        )
        try await listener.waitFor("bad signature", in: listener.stderr)
        try await listener.waitFor("todo_completed", in: listener.stdout)

        let status = try await listener.interrupt()
        #expect(status == 0, "\(listener.stderr.text)")
        let lines = listener.stdout.text.split(separator: "\n")
        #expect(
            lines == [
                "09:12  todo_created  Draft the launch  by Victor Cooper in The Leto Laptop",
                "09:12  todo_completed  Draft the launch  by Victor Cooper in The Leto Laptop",
            ]
        )
        let stderr = listener.stderr.text
        #expect(stderr.contains("rejected: bad signature (answered 403)"))
        #expect(stderr.contains("duplicate todo_created 9007199254740993"))
        #expect(stderr.contains("Stopped."))
        #expect(!stderr.contains(secret) && !listener.stdout.text.contains(secret))
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("--json prints one parseable object per event; --forward relays them, signature intact")
    func jsonAndForward() async throws {
        let forwarded = ForwardedDeliveries()
        try await Sandbox.withRunning(configuration: .init(modules: [ForwardTarget(deliveries: forwarded)])) { app in
            let listener = try ListenerProcess(
                arguments: [
                    "webhooks", "listen", "--port", "0", "--json", "--secret", secret,
                    "--forward", app.baseURL.absoluteString + "/app",
                ],
                variables: [:]
            )
            let url = try #require(try await listener.listeningURL(), "\(listener.stderr.text)")
            for id in 1...3 {
                #expect(
                    try await deliver(event(id: id, kind: "todo_created", title: "Task \(id)"), to: url, secret: secret)
                        == 200
                )
            }
            #expect(try await listener.interrupt() == 0)
            let lines = listener.stdout.text.split(separator: "\n")
            #expect(lines.count == 3)
            let events = try lines.map { try JSONDecoder().decode(WebhookEvent.self, from: Data($0.utf8)) }
            #expect(events.map(\.id) == [1, 2, 3])
            #expect(events.map(\.kind) == [.todoCreated, .todoCreated, .todoCreated])
            #expect(!listener.stderr.text.contains(secret))
        }
        let bodies = await forwarded.bodies
        #expect(bodies.count == 3)
        #expect(bodies.first.map { Data($0.utf8) } == event(id: 1, kind: "todo_created", title: "Task 1"))
        let signatures = await forwarded.signatures
        #expect(
            signatures.first
                == BasecampWebhooks.signature(secret: secret).signature(
                    for: event(id: 1, kind: "todo_created", title: "Task 1")
                )
        )
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("--sandbox registers the listener; a to-do created by another process appears")
    func sandboxSelfRegistration() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "basecamp-listen-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let state = ["BASECAMP_SANDBOX_STATE": file.path]
        let listener = try ListenerProcess(
            arguments: ["--sandbox", "webhooks", "listen", "--port", "0"],
            variables: state
        )
        try await listener.waitFor("Registered sandbox webhook", in: listener.stderr)
        let created = try await runBuiltBasecamp(
            ["--sandbox", "todos", "create", "--todolist", "1069479341", "--content", "Order the cake"],
            variables: state
        )
        #expect(created.exitCode == 0, "\(created.stderr)")
        try await listener.waitFor("Order the cake", in: listener.stdout)
        #expect(try await listener.interrupt() == 0)
        #expect(listener.stdout.text.contains("todo_created  Order the cake"), "\(listener.stderr.text)")
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("without a secret, listen refuses to start")
    func secretRequired() async throws {
        let result = try await runBuiltBasecamp(["webhooks", "listen", "--port", "0"])
        #expect(result.exitCode == 3)
        #expect(result.stderr.contains("BASECAMP_WEBHOOK_SECRET"))
    }
}
