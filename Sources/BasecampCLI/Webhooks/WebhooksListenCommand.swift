import ArgumentParser
import Basecamp
import CLISupport
import Foundation
import HTTPCore
import HTTPCoreWebhooks

/// `basecamp webhooks listen`: a local receiver that prints each verified event as it arrives
/// and, with `--forward`, relays it to a local app.
struct WebhooksListenCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Receive webhook deliveries locally and print each event as it arrives.",
        discussion: """
            Listens on 127.0.0.1 (--host to change) for Basecamp's POSTs, checks each X-Basecamp-Signature with the webhook's secret (BASECAMP_WEBHOOK_SECRET, or --secret), drops redeliveries of an event already shown, and prints one line per event: time, kind, recording title, creator and project. --json prints each event as one JSON object per line instead. Rejected deliveries (bad signature, too large, malformed) are reported on stderr with the reason. Ctrl-C stops it.
            --forward URL relays every verified event (body and signature unchanged) to your app; when your app does not answer 2xx, the sender is told to retry.
            With --sandbox it registers itself as a webhook of a sandbox project (--project), so to-dos created with BASECAMP_SANDBOX_STATE set to the same file, from another terminal, appear here.

            Examples:
              BASECAMP_WEBHOOK_SECRET=… basecamp webhooks listen --port 8789
              basecamp webhooks listen --json --forward http://127.0.0.1:3000/basecamp/webhooks
              basecamp --sandbox webhooks listen
            """
    )

    @ParentCommand var root: BasecampCommand

    @Option(help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "port"))
    var port: Int = 8789

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "host"))
    var host: String = "127.0.0.1"

    @Option(help: ArgumentHelp("The path deliveries are POSTed to.", valueName: "path"))
    var path: String = "/webhooks"

    @Option(help: ArgumentHelp("The webhook's secret (prefer BASECAMP_WEBHOOK_SECRET).", valueName: "secret"))
    var secret: String?

    @Option(help: ArgumentHelp("Relay each verified event to this URL.", valueName: "url"))
    var forward: String?

    @Option(
        help: ArgumentHelp("With --sandbox: the project to register the webhook on.", valueName: "id")
    )
    var project: Int64?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard path.hasPrefix("/") else { throw ValidationError("--path must start with /, as in /webhooks.") }
        if let forward {
            guard let url = URL(string: forward), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host != nil
            else { throw ValidationError("--forward takes an http(s) URL, as in http://127.0.0.1:3000/hooks.") }
        }
    }

    func run(in context: CommandContext) async throws {
        let secret = try listenSecret(context)
        let printer = WebhookEventPrinter(context: context, json: context.outputFormat != .table)
        var receiver = BasecampWebhooks.receiver(secret: secret)
        receiver.onAny { event, delivery in printer.show(event, delivery) }
        if let forward, let url = URL(string: forward) {
            let forwarder = WebhookForwarder(
                url: url,
                transport: context.environment.transport ?? URLSessionTransport()
            )
            receiver.on(.any) { _, delivery in try await forwarder.relay(delivery) }
        }
        var registration: SandboxWebhookRegistration?
        if context.usesSandbox {
            let runner = OperationRunner(context: context, root: root)
            let account = try runner.account(in: try await runner.session())
            registration = SandboxWebhookRegistration(context: context, account: account, project: project)
        }
        let listener = WebhookListener(host: host, port: port, path: path)
        try await listener.run(
            receiver: receiver,
            onResult: { printer.report($0) },
            onListening: { [registration] url in
                context.note("Listening on \(url.absoluteString) (Ctrl-C to stop)")
                try await registration?.register(payloadURL: url, secret: secret)
            }
        )
        context.note("Stopped.")
    }

    /// The secret from `--secret` or the environment; with `--sandbox`, a fresh one when neither
    /// is set. Registered with the output scrubber so it is never printed.
    private func listenSecret(_ context: CommandContext) throws -> String {
        if context.usesSandbox, secret == nil, context.variable("BASECAMP_WEBHOOK_SECRET") == nil {
            let fresh = "sandbox-" + UUID().uuidString.lowercased()
            context.registerSecret(fresh)
            return fresh
        }
        return try context.credential(secret, option: "--secret", variable: "BASECAMP_WEBHOOK_SECRET")
    }
}
