import ArgumentParser
import Basecamp
import BasecampSandbox
import CLISupport
import Foundation
import HTTPCore
import HTTPCoreWebhooks

/// `basecamp webhooks listen`: a local receiver that prints each verified event as it arrives
/// and, with `--forward`, relays it to a local app.
struct WebhooksListenCommand: BasecampSubcommand {
    /// Ctrl-C stops the server, which then deletes the webhook it registered.
    var handlesTerminationSignals: Bool { true }

    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Receive webhook deliveries locally and print each event as it arrives.",
        discussion: """
            Listens on 127.0.0.1 (--host to change) for Basecamp's POSTs, checks each X-Basecamp-Signature with the webhook's secret (BASECAMP_WEBHOOK_SECRET, or --secret), and prints one line per event: time, kind, recording title, creator and project. --json prints each event as one JSON object per line instead. Each event is shown once: a duplicate, or a redelivery after a failed forward, is said on stderr. Rejected deliveries (bad signature, too large, malformed) are reported on stderr with the reason. Ctrl-C stops it.
            --forward URL relays every verified event (body and signature unchanged) to your app; when your app does not answer 2xx, the sender is told to retry.
            With --sandbox it registers itself as a webhook of a sandbox project (--project), so to-dos created with BASECAMP_SANDBOX_STATE set to the same file, from another terminal, appear here. Without a secret it makes one and prints it once on stderr ("Signing secret: …"), for the app behind --forward. Ctrl-C (or SIGTERM) deletes the webhook again; a listener restarted at the same address takes over a webhook left behind by one that was killed.

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
        // Events print as they come, one line each: a table row or a JSON object.
        guard [.table, .json, .jsonl].contains(context.outputFormat), context.fields == nil else {
            throw ValidationError(
                "webhooks listen prints each event as a line or, with --json, a JSON object; "
                    + "--format csv or tsv and --fields do not apply."
            )
        }
        let (secret, madeHere) = try listenSecret(context)
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
            let project = project ?? Int64(BasecampSandboxSeed.letoLaptopProjectID)
            registration = SandboxWebhookRegistration(context: context, account: account, project: project)
        }
        let registered = Locked<Int64?>(nil)
        let listener = WebhookListener(host: host, port: port, path: path)
        do {
            try await listener.run(
                receiver: receiver,
                onResult: { printer.report($0) },
                onListening: { [registration] url in
                    if let registration {
                        let id = try await registration.register(payloadURL: url, secret: secret)
                        registered.withLock { $0 = id }
                    }
                    if madeHere { Self.showSigningSecret(secret, in: context) }
                    context.note("Listening on \(url.absoluteString) (Ctrl-C to stop)")
                }
            )
        } catch {
            try? await unregister(registered.withLock { $0 }, with: registration, in: context)
            throw error
        }
        try await unregister(registered.withLock { $0 }, with: registration, in: context)
        context.note("Stopped.")
    }

    /// Deletes the webhook this listener registered, so the sandbox stops delivering to an
    /// address nobody listens on.
    private func unregister(
        _ id: Int64?,
        with registration: SandboxWebhookRegistration?,
        in context: CommandContext
    ) async throws {
        guard let id, let registration else { return }
        do {
            try await registration.unregister(id)
            context.note("Removed sandbox webhook \(id).")
        } catch {
            context.note(
                "Could not remove sandbox webhook \(id); remove it with: basecamp --sandbox webhooks delete \(id)"
            )
            throw error
        }
    }

    /// The secret from `--secret` or the environment, and whether it was made here: with
    /// `--sandbox`, a fresh one when neither is set. Registered with the output scrubber, so only
    /// ``showSigningSecret(_:in:)`` ever prints it.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` (exit 64) when there is none.
    private func listenSecret(_ context: CommandContext) throws -> (value: String, madeHere: Bool) {
        if let given = secret.flatMap({ $0.isEmpty ? nil : $0 }) ?? context.variable("BASECAMP_WEBHOOK_SECRET") {
            context.registerSecret(given)
            return (given, false)
        }
        guard context.usesSandbox else {
            throw APIError.usage(
                APIError.Details(
                    message: "No webhook secret: listen needs the secret deliveries are signed with.",
                    hint: "Set BASECAMP_WEBHOOK_SECRET (preferred: flags show up in the process list) or pass --secret."
                )
            )
        }
        let fresh = "sandbox-" + UUID().uuidString.lowercased()
        context.registerSecret(fresh)
        return (fresh, true)
    }

    /// Prints the secret this listener made, once, on stderr, as `stripe listen` does: the app
    /// behind `--forward` needs it to verify what it receives. It goes past the output scrubber
    /// on purpose; every other line (and `--verbose`) still shows it scrubbed.
    private static func showSigningSecret(_ secret: String, in context: CommandContext) {
        context.environment.standardError.write(
            "Signing secret: \(secret) (verify X-Basecamp-Signature with it; --secret picks your own)\n"
        )
    }
}
