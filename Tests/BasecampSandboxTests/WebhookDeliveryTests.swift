import APISandbox
import Basecamp
import BasecampSandbox
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPCoreWebhooks
import HTTPCoreWebhooksHummingbird
import Hummingbird
import Testing

/// What a loopback receiver saw: every result, and the events its handlers ran for.
actor ReceivedEvents {
    private(set) var results: [WebhookResult] = []
    private(set) var handled: [String] = []
    private var failuresLeft: Int

    init(failFirst: Int = 0) { failuresLeft = failFirst }

    func append(_ result: WebhookResult) { results.append(result) }

    /// Records the run; throws while failures are left, so the sender has to retry.
    func run(_ event: WebhookEvent) throws {
        handled.append("\(event.webhookEventKind) \(event.recording?.title ?? "")")
        if failuresLeft > 0 {
            failuresLeft -= 1
            throw CancellationError()
        }
    }
}

/// A Basecamp webhook receiver mounted at `/hooks` of a second loopback sandbox.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ReceiverModule: SandboxModule {
    let secret: String
    let events: ReceivedEvents

    func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        var receiver = BasecampWebhooks.receiver(secret: secret)
        receiver.onAny { event, _ in try await events.run(event) }
        router.webhooks("/hooks", receiver: receiver) { await events.append($0) }
    }
}

@Suite("The sandbox delivers webhooks")
struct WebhookDeliveryTests {
    let secret = "loopback-webhook-secret"
    let project = String(BasecampSandboxSeed.letoLaptopProjectID)

    @available(macOS 14, iOS 17, tvOS 17, *)
    func module() -> BasecampSandboxModule {
        var module = BasecampSandboxModule()
        module.webhookRetryDelays = [.milliseconds(20), .milliseconds(20)]
        return module
    }

    /// Runs `body` with the Basecamp sandbox (its module quick to retry) and a receiver sandbox
    /// side by side.
    @available(macOS 14, iOS 17, tvOS 17, *)
    func withReceiver(
        _ events: ReceivedEvents,
        _ body: (_ basecamp: Sandbox, _ receiver: Sandbox, BasecampSandboxModule) async throws -> Void
    ) async throws {
        let module = module()
        try await Sandbox.withRunning(
            configuration: .init(modules: [ReceiverModule(secret: secret, events: events)])
        ) { receiver in
            try await withBasecampSandbox(module: module) { basecamp in try await body(basecamp, receiver, module) }
        }
    }

    /// Where the receiver sandbox takes deliveries.
    @available(macOS 14, iOS 17, tvOS 17, *)
    func hooksURL(_ receiver: Sandbox) -> String {
        receiver.baseURL.absoluteString + "/hooks"
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    func createWebhook(
        on sandbox: Sandbox,
        url: String,
        types: [JSONValue] = ["Todo"],
        secret: String? = nil
    ) async throws -> Int {
        var body: [String: JSONValue] = ["payload_url": .string(url), "types": .array(types)]
        body["secret"] = .string(secret ?? self.secret)
        let created = try await sandbox.account().perform(
            OperationCatalog.createWebhook,
            pathParameters: ["bucketId": project],
            body: .json(JSONValue.object(body))
        )
        return try #require(created.value["id"]?.intValue)
    }

    func createTodo(_ content: String, on account: AccountClient) async throws -> Todo {
        try await account.todos.create(
            todolistID: Int64(BasecampSandboxSeed.hardwareTodolistID),
            CreateTodoRequest(content: content)
        )
    }

    /// The webhook's recent deliveries, once `module` has finished every delivery in flight.
    @available(macOS 14, iOS 17, tvOS 17, *)
    func deliveries(
        of hookID: Int,
        on account: AccountClient,
        after module: BasecampSandboxModule
    ) async throws -> [WebhookDelivery] {
        await module.waitForWebhookDeliveries()
        return try await account.webhooks.get(webhookID: Int64(hookID)).recentDeliveries ?? []
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("create and complete a to-do: both events arrive verified, in order, once each")
    func createAndComplete() async throws {
        let events = ReceivedEvents()
        try await withReceiver(events) { basecamp, receiver, module in
            let hookID = try await createWebhook(on: basecamp, url: hooksURL(receiver))
            let account = try basecamp.account()
            let todo = try await createTodo("Solder the flux capacitor", on: account)
            try await account.todos.complete(todoID: todo.id)

            let deliveries = try await deliveries(of: hookID, on: account, after: module)
            #expect(deliveries.map { $0.response?.code } == [200, 200])
            #expect(deliveries.map { $0.request?.body?.kind } == [.todoCompleted, .todoCreated])
            #expect(deliveries.first?.request?.headers?["x-basecamp-signature"]?.count == 64)
        }
        #expect(
            await events.handled == [
                "todo_created Solder the flux capacitor", "todo_completed Solder the flux capacitor",
            ]
        )
        let results = await events.results
        #expect(results.count == 2)
        #expect(results.allSatisfy { if case .handled = $0 { true } else { false } })
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("an upload's event carries the download_url the API answers: on the storage origin")
    func uploadEventPointsAtStorage() async throws {
        try await withReceiver(ReceivedEvents()) { basecamp, receiver, module in
            let hookID = try await createWebhook(on: basecamp, url: hooksURL(receiver), types: ["Upload"])
            let scratch = try ScratchFolder("webhook-upload")
            defer { scratch.remove() }
            let file = scratch.file("plan.txt")
            try Data("the plan\n".utf8).write(to: file)
            let account = try basecamp.account()
            let upload = try await account.upload(file: file, toVault: Int64(BasecampSandboxSeed.letoLaptopVaultID))
            await module.waitForWebhookDeliveries()

            let hook = try await basecamp.raw("GET", "/\(accountID)/webhooks/\(hookID)")
            let delivered = try JSONValue(parsing: hook.body)["recent_deliveries"]?[0]?["request"]?["body"]
            #expect(delivered?["kind"]?.stringValue == "upload_created")
            let downloadURL = delivered?["recording"]?["download_url"]?.stringValue
            #expect(downloadURL == upload.downloadURL)
            #expect(downloadURL.flatMap(URL.init(string:))?.port == basecamp.secondOrigin?.port)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("a receiver that fails once gets the event again, and handles it")
    func redeliveryAfterFailure() async throws {
        let events = ReceivedEvents(failFirst: 1)
        try await withReceiver(events) { basecamp, receiver, module in
            let hookID = try await createWebhook(on: basecamp, url: hooksURL(receiver), types: ["Comment"])
            let account = try basecamp.account()
            _ = try await account.comments.create(
                recordingID: Int64(BasecampSandboxSeed.fluxCapacitorTodoID),
                CreateCommentRequest(content: "Ordered the parts")
            )
            let deliveries = try await deliveries(of: hookID, on: account, after: module)
            #expect(deliveries.map { $0.response?.code } == [200, 500])
            #expect(deliveries.first?.request?.body?.id == deliveries.last?.request?.body?.id)
        }
        let handled = await events.handled
        #expect(handled.count == 2)
        #expect(Set(handled).count == 1)
        #expect(handled.first?.hasPrefix("comment_created") == true)
        let results = await events.results
        #expect(results.map(\.statusCode) == [500, 200])
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("a wrong secret is refused by the receiver and retried a bounded number of times")
    func wrongSecretIsRetriedThenGivenUp() async throws {
        let events = ReceivedEvents()
        try await withReceiver(events) { basecamp, receiver, module in
            let hookID = try await createWebhook(
                on: basecamp,
                url: hooksURL(receiver),
                secret: "not-the-receivers-secret"
            )
            let account = try basecamp.account()
            _ = try await createTodo("Forged", on: account)
            let deliveries = try await deliveries(of: hookID, on: account, after: module)
            #expect(deliveries.map { $0.response?.code } == [403, 403, 403])
        }
        #expect(await events.handled.isEmpty)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("types, inactive webhooks and other projects are respected")
    func typesAndActive() async throws {
        let events = ReceivedEvents()
        try await withReceiver(events) { basecamp, receiver, module in
            let url = hooksURL(receiver)
            _ = try await createWebhook(on: basecamp, url: url, types: ["Comment"])
            let inactive = try await createWebhook(on: basecamp, url: url, types: [])
            let account = try basecamp.account()
            _ = try await account.webhooks.update(
                webhookID: Int64(inactive),
                UpdateWebhookRequest(active: false)
            )
            _ = try await createTodo("Nobody hears this", on: account)
            await module.waitForWebhookDeliveries()
        }
        #expect(await events.results.isEmpty)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("a receiver that never answers does not slow the API call that caused the event")
    func slowReceiverIsOffTheRequestPath() async throws {
        try await withReceiver(ReceivedEvents()) { basecamp, receiver, module in
            _ = try await createWebhook(on: basecamp, url: receiver.baseURL.absoluteString + "/_test/hold/webhook")
            let account = try basecamp.account()
            let todo = try await createTodo("Fast", on: account)
            #expect(todo.content == "Fast")
            try await receiver.state.waitUntilWaiting(onHold: "webhook")
            receiver.state.release("webhook")
            await module.waitForWebhookDeliveries()
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("a retry never holds up a write, and stopping gives each event one attempt without waiting for retries")
    func stoppingDropsRetries() async throws {
        let events = ReceivedEvents(failFirst: 100)
        // Retries wait on a clock that never moves: only stopping can end them.
        let clock = TestClock(mode: .manual)
        var module = BasecampSandboxModule()
        module.timeSource = clock
        module.webhookRetryDelays = [.seconds(1)]
        try await Sandbox.withRunning(
            configuration: .init(modules: [ReceiverModule(secret: secret, events: events)])
        ) { [module] receiver in
            try await withBasecampSandbox(module: module) { basecamp in
                _ = try await createWebhook(on: basecamp, url: hooksURL(receiver))
                let account = try basecamp.account()
                _ = try await createTodo("First", on: account)
                await clock.waitForSleepers(1)
                let second = try await createTodo("Second", on: account)
                #expect(second.content == "Second")
                #expect(await events.results.count == 1)
            }
            // Stopped: the waiting retry was dropped and the second event had its one attempt.
            #expect(await events.results.map(\.statusCode) == [500, 500])
        }
        #expect(await events.handled == ["todo_created First", "todo_created Second"])
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("webhooks CRUD: list, get, update, delete; the secret is never shown")
    func crud() async throws {
        try await withBasecampSandbox(module: module()) { basecamp in
            let id = try await createWebhook(on: basecamp, url: "https://example.com/hooks")
            let account = try basecamp.account()
            let listed = try await basecamp.raw("GET", "/\(accountID)/buckets/\(project)/webhooks.json")
            #expect(listed.status == 200)
            let ids = listed.json?.arrayValue?.compactMap { $0["id"]?.intValue }
            #expect(ids == [BasecampSandboxSeed.pausedWebhookID, id])
            #expect(!String(decoding: listed.body, as: UTF8.self).contains(secret))
            let updated = try await account.webhooks.update(
                webhookID: Int64(id),
                UpdateWebhookRequest(payloadURL: "https://example.com/other", types: ["Todo", "Comment"])
            )
            #expect(updated.payloadURL == "https://example.com/other")
            #expect(updated.types == ["Todo", "Comment"])
            for refused in ["ftp://example.com", "http://example.com/hooks"] {
                let bad = try await basecamp.raw(
                    "POST",
                    "/\(accountID)/buckets/\(project)/webhooks.json",
                    body: #"{"payload_url":"\#(refused)","types":[]}"#
                )
                #expect(bad.status == 422, "\(refused): Basecamp delivers over https only")
            }
            try await account.webhooks.delete(webhookID: Int64(id))
            let gone = try await basecamp.raw("GET", "/\(accountID)/webhooks/\(id)")
            #expect(gone.status == 404)
        }
    }
}
