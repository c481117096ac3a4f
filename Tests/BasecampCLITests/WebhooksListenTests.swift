import APISandbox
import Basecamp
import CLISupport
import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPCoreWebhooks
import HTTPTypes
import Hummingbird
import Testing

@testable import BasecampCLI

/// Records what `--forward` relays: bodies and their signature headers.
actor ForwardedDeliveries {
    private(set) var bodies: [String] = []
    private(set) var signatures: [String] = []
    private var failuresLeft: Int

    /// Deliveries that refuse the first `failFirst` relays with a 500.
    init(failFirst: Int = 0) { failuresLeft = failFirst }

    /// Records a relay; `false` while failures are left.
    func append(body: String, signature: String) -> Bool {
        bodies.append(body)
        signatures.append(signature)
        guard failuresLeft > 0 else { return true }
        failuresLeft -= 1
        return false
    }
}

/// An app at `/app` that accepts what is forwarded to it (after the failures it was told to make).
@available(macOS 14, iOS 17, tvOS 17, *)
struct ForwardTarget: SandboxModule {
    let deliveries: ForwardedDeliveries

    func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        router.post("/app") { request, _ -> HTTPResponse.Status in
            var request = request
            let body = try await request.collectBody(upTo: 1 << 20)
            let accepted = await deliveries.append(
                body: String(buffer: body),
                signature: request.headers[BasecampWebhooks.signatureHeader] ?? ""
            )
            return accepted ? .noContent : .internalServerError
        }
    }
}

@Suite("basecamp webhooks listen, as a process")
struct WebhooksListenTests {
    let secret = "listen-test-secret-0d9f"

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("prints a line per event, reports a bad signature, and exits 0 on SIGINT")
    func readableLines() async throws {
        let listener = try ListenerProcess(
            arguments: ["webhooks", "listen", "--port", "0", "--path", "/hooks"],
            variables: ["BASECAMP_WEBHOOK_SECRET": secret, "TZ": "UTC"]
        )
        let url = try #require(try await listener.listeningURL(), "\(listener.stderr.text)")
        #expect(url.path == "/hooks")
        let created = webhookEvent(id: 9_007_199_254_740_993, kind: "todo_created", title: "Draft the launch")
        #expect(try await deliverWebhook(created, to: url, secret: secret) == 200)
        #expect(try await deliverWebhook(created, to: url, secret: secret) == 200)
        #expect(
            try await deliverWebhook(
                webhookEvent(id: 2, kind: "todo_completed", title: "Forged"),
                to: url,
                secret: "guess"
            ) == 403
        )
        #expect(
            try await deliverWebhook(
                webhookEvent(id: 3, kind: "todo_completed", title: "Draft the launch"),
                to: url,
                secret: secret
            )
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
    @Test(
        "--format csv or tsv, or --fields, is refused before listening",
        arguments: [["--format", "csv"], ["--format", "tsv"], ["--json", "--fields", "kind"]]
    )
    func refusedFormats(options: [String]) async {
        let result = await basecamp(["--sandbox"] + options + ["webhooks", "listen", "--port", "0"])
        #expect(result.exitCode == 64, "\(result.stderr)")
        #expect(result.stderr.contains("do not apply"))
    }

    @Test("An app behind --forward that cannot be reached is named as such, and the delivery fails")
    func forwardUnreachable() async throws {
        let forwarder = WebhookForwarder(
            url: URL(string: "http://127.0.0.1:9/app") ?? URL(fileURLWithPath: "/"),
            transport: ScriptedTransport([.connectionRefused])
        )
        let delivery = WebhookContext(
            eventID: nil,
            kind: "todo_created",
            headers: [:],
            body: Data("{}".utf8),
            receivedAt: Date()
        )
        do {
            try await forwarder.relay(delivery)
            Issue.record("the relay did not fail")
        } catch let failure as ForwardFailure {
            #expect(failure.description.hasPrefix("http://127.0.0.1:9/app could not be reached ("))
        }
    }

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
                    try await deliverWebhook(
                        webhookEvent(id: id, kind: "todo_created", title: "Task \(id)"),
                        to: url,
                        secret: secret
                    )
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
        #expect(bodies.first.map { Data($0.utf8) } == webhookEvent(id: 1, kind: "todo_created", title: "Task 1"))
        let signatures = await forwarded.signatures
        #expect(
            signatures.first
                == BasecampWebhooks.signature(secret: secret).signature(
                    for: webhookEvent(id: 1, kind: "todo_created", title: "Task 1")
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
    @Test("an event whose forward failed is shown once; its redelivery is said, and no status is doubled")
    func redeliveryAfterFailedForward() async throws {
        let forwarded = ForwardedDeliveries(failFirst: 1)
        try await Sandbox.withRunning(configuration: .init(modules: [ForwardTarget(deliveries: forwarded)])) { app in
            let listener = try ListenerProcess(
                arguments: ["webhooks", "listen", "--port", "0", "--forward", app.baseURL.absoluteString + "/app"],
                variables: ["BASECAMP_WEBHOOK_SECRET": secret, "TZ": "UTC"]
            )
            let url = try #require(try await listener.listeningURL(), "\(listener.stderr.text)")
            let created = webhookEvent(id: 41, kind: "todo_created", title: "Book the venue")
            #expect(try await deliverWebhook(created, to: url, secret: secret) == 500)
            #expect(try await deliverWebhook(created, to: url, secret: secret) == 200)
            #expect(try await deliverWebhook(created, to: url, secret: secret) == 200)
            #expect(try await listener.interrupt() == 0)
            #expect(
                listener.stdout.text.split(separator: "\n") == [
                    "09:12  todo_created  Book the venue  by Victor Cooper in The Leto Laptop"
                ]
            )
            let notes = listener.stderr.text.split(separator: "\n").map(String.init)
            let forward = app.baseURL.absoluteString + "/app"
            #expect(notes.contains("failed todo_created 41: \(forward) answered 500; the sender will deliver it again"))
            #expect(notes.contains("redelivery of todo_created 41, shown above"))
            #expect(notes.contains("duplicate todo_created 41, already handled"))
            #expect(!listener.stderr.text.contains("(answered 500)"), "\(listener.stderr.text)")
        }
        #expect(await forwarded.bodies.count == 2)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("without a secret, listen refuses to start: exit 64, naming the variable and the flag")
    func secretRequired() async throws {
        let result = try await runBuiltBasecamp(["webhooks", "listen", "--port", "0"])
        #expect(result.exitCode == 64, "\(result.stderr)")
        #expect(result.stderr.contains("BASECAMP_WEBHOOK_SECRET"))
        #expect(result.stderr.contains("--secret"))
        #expect(!result.stderr.contains("Listening on"))
    }
}
