import APISandbox
import BasecampSandbox
import Foundation
import HTTPCore
import HTTPTypes
import Hummingbird
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Counts the deliveries that reach `/refuse`, answering each with a 500, as a broken app would.
@available(macOS 14, iOS 17, tvOS 17, *)
struct RefusingReceiver: SandboxModule {
    let attempts: Locked<Int>

    func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        router.post("/refuse") { _, _ -> HTTPResponse.Status in
            attempts.withLock { $0 += 1 }
            return .internalServerError
        }
    }
}

/// A sandbox state file in the temporary folder, shared by the processes of one test.
struct SharedSandboxState {
    let file = FileManager.default.temporaryDirectory.appending(path: "basecamp-listen-\(UUID().uuidString).json")
    let project = BasecampSandboxSeed.letoLaptopProjectID

    var variables: [String: String] { ["BASECAMP_SANDBOX_STATE": file.path, "TZ": "UTC"] }

    /// Starts the built `basecamp --sandbox webhooks listen` on this state, with `options`.
    func listener(_ options: [String], secret: String? = nil) throws -> ListenerProcess {
        var variables = self.variables
        variables["BASECAMP_WEBHOOK_SECRET"] = secret
        return try ListenerProcess(arguments: ["--sandbox", "webhooks", "listen"] + options, variables: variables)
    }

    func remove() {
        try? FileManager.default.removeItem(at: file)
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: file.path + ".lock"))
    }

    /// The ids of the webhooks registered for `payloadURL`, as the state file holds them now.
    @available(macOS 14, iOS 17, tvOS 17, *)
    func webhooks(for payloadURL: URL) async throws -> [Int] {
        let listed = try await request("GET", "/buckets/\(project)/webhooks.json")
        return (listed.arrayValue ?? []).filter { $0["payload_url"]?.stringValue == payloadURL.absoluteString }
            .compactMap { $0["id"]?.intValue }
    }

    /// Registers a webhook for `payloadURL` signed with `secret`, as a listener killed long ago left.
    @available(macOS 14, iOS 17, tvOS 17, *)
    func registerWebhook(for payloadURL: String, secret: String) async throws {
        let body: JSONValue = ["payload_url": .string(payloadURL), "types": [], "secret": .string(secret)]
        _ = try await request("POST", "/buckets/\(project)/webhooks.json", body: body)
    }

    /// One request to a sandbox of the state file, started and stopped around it.
    @available(macOS 14, iOS 17, tvOS 17, *)
    private func request(_ method: String, _ path: String, body: JSONValue? = nil) async throws -> JSONValue {
        let module = try BasecampSandboxModule(stateFile: file)
        return try await Sandbox.withRunning(configuration: .init(modules: [module])) { sandbox in
            let base = sandbox.baseURL.absoluteString + "/basecamp/" + BasecampSandboxModule.defaultAccountID
            var request = URLRequest(url: try #require(URL(string: base + path)))
            request.httpMethod = method
            request.setValue("Bearer sandbox-token", forHTTPHeaderField: "Authorization")
            request.setValue("WebhooksListenLifecycleTests (tests@example.com)", forHTTPHeaderField: "User-Agent")
            if let body {
                request.httpBody = body.encoded()
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            let (data, _) = try await URLSession.shared.data(for: request)
            return try JSONValue(parsing: data)
        }
    }
}

@Suite("basecamp --sandbox webhooks listen cleans up after itself")
struct WebhooksListenLifecycleTests {
    let createTodo = ["--sandbox", "todos", "create", "--todolist", "1069479341", "--content"]

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Ctrl-C deletes the webhook it registered; the secret it made is printed once and verifies")
    func interruptUnregisters() async throws {
        let state = SharedSandboxState()
        defer { state.remove() }
        let listener = try state.listener(["--port", "0", "--verbose"])
        let url = try #require(try await listener.listeningURL(), "\(listener.stderr.text)")
        #expect(try await state.webhooks(for: url).count == 1)
        let announced = listener.stderr.text.split(separator: "\n").filter { $0.hasPrefix("Signing secret: ") }
        #expect(announced.count == 1, "\(listener.stderr.text)")
        let secret = try #require(announced.first?.split(separator: " ").dropFirst(2).first.map(String.init))
        #expect(secret.hasPrefix("sandbox-"))
        let event = webhookEvent(id: 7, kind: "todo_created", title: "Signed by the printed secret")
        #expect(try await deliverWebhook(event, to: url, secret: secret) == 200)
        #expect(try await deliverWebhook(event, to: url, secret: "sandbox-webhook-secret") == 403)

        #expect(try await listener.interrupt() == 0, "\(listener.stderr.text)")
        #expect(listener.stderr.text.contains("Removed sandbox webhook"))
        #expect(try await state.webhooks(for: url).isEmpty)
        // Printed on purpose once; the verbose log of the registration shows it scrubbed.
        #expect(listener.stderr.text.components(separatedBy: secret).count == 2)
        #expect(!listener.stdout.text.contains(secret))
        #expect(listener.stdout.text.contains("Signed by the printed secret"))
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("restarted at the same address, listen takes over what a killed listener left; SIGTERM deletes it")
    func restartReusesRegistration() async throws {
        let state = SharedSandboxState()
        defer { state.remove() }
        let killed = try state.listener(["--port", String(try portBelowEphemeralRange())])
        let url = try #require(try await killed.listeningURL(), "\(killed.stderr.text)")
        kill(killed.process.processIdentifier, SIGKILL)
        killed.process.waitUntilExit()
        try await state.registerWebhook(for: url.absoluteString, secret: "an-older-listeners-secret")
        #expect(try await state.webhooks(for: url).count == 2)

        let port = try #require(url.port)
        let listener = try state.listener(["--port", String(port)], secret: "listen-restart-secret-5e1c")
        #expect(try await listener.listeningURL() == url, "\(listener.stderr.text)")
        #expect(listener.stderr.text.contains("Reusing sandbox webhook"), "\(listener.stderr.text)")
        #expect(!listener.stderr.text.contains("Signing secret"))
        #expect(try await state.webhooks(for: url).count == 1)

        let created = try await runBuiltBasecamp(createTodo + ["Order the cake"], variables: state.variables)
        #expect(created.exitCode == 0, "\(created.stderr)")
        try await listener.waitFor("Order the cake", in: listener.stdout)
        // SIGTERM, as a service manager stops it, cleans up as Ctrl-C does.
        #expect(try await listener.terminate() == 0)
        #expect(listener.stdout.text.contains("todo_created  Order the cake"), "\(listener.stderr.text)")
        #expect(!listener.stderr.text.contains("bad signature"), "\(listener.stderr.text)")
        #expect(try await state.webhooks(for: url).isEmpty)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("a write while a webhook points at a failing receiver delivers once and does not wait for retries")
    func deadRegistrationDoesNotSlowWrites() async throws {
        let state = SharedSandboxState()
        defer { state.remove() }
        let attempts = Locked(0)
        try await Sandbox.withRunning(configuration: .init(modules: [RefusingReceiver(attempts: attempts)])) { app in
            try await state.registerWebhook(for: app.baseURL.absoluteString + "/refuse", secret: "whatever-it-was")
            let created = try await runBuiltBasecamp(createTodo + ["Nobody hears this"], variables: state.variables)
            #expect(created.exitCode == 0, "\(created.stderr)")
            // The write's process has ended, so every attempt it made has arrived: one, no retry.
            #expect(attempts.withLock { $0 } == 1)
        }
    }
}
