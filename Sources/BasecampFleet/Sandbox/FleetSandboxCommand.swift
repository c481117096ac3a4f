import APISandbox
import ArgumentParser
import BasecampSandbox
import CLISupport
import Foundation
import HTTPCore

/// `basecamp-fleet sandbox`: the Basecamp sandbox as strict as the real service where the fleet
/// meets it (Basecamp's rate limit per account and address, rotating refresh tokens that live a
/// few seconds, only issued tokens accepted, webhooks retried when a receiver is slow or fails),
/// with a witness counting what reached it. On SIGTERM it lets the queued webhook deliveries
/// finish, then writes its count line.
struct FleetSandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Serves the Basecamp sandbox for the fleet and counts what reaches it."
    )

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 0

    @Option(help: "Seconds an access token lives.")
    var tokenLifetime = 6

    @Option(help: "A webhook receiver replica's URL; repeat for each (the balancer takes turns).")
    var receiver: [String] = []

    @Option(help: "Seconds the sandbox waits for a receiver before it counts a delivery as failed.")
    var webhookTimeout = 1.0

    @Option(help: "Seconds to wait for queued webhook deliveries when stopping.")
    var drain = 90.0

    @OptionGroup var output: CountsOutput

    func run() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else { throw ValidationError("needs macOS 14") }
        let receivers = try receiver.map { text in
            guard let url = URL(string: text), url.scheme == "http" else {
                throw ValidationError("--receiver must be an http URL: \(text)")
            }
            return url
        }
        var options = SandboxAuthorizationOptions(accessTokenLifetime: tokenLifetime, requiresIssuedTokens: true)
        options.clients = [.init(id: FleetSignInCommand.clientID, secret: FleetSignInCommand.clientSecret)]
        let authorization = BasecampSandboxAuthorization(options: options)
        var module = BasecampSandboxModule(authorization: authorization)
        module.rateLimiter.setLimit(.basecamp)
        module.webhookTimeout = .milliseconds(Int64(webhookTimeout * 1000))
        // A real service retries a failed or slow delivery a few times, backing off.
        module.webhookRetryDelays = [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8)]
        let witness = FleetWitness(authorization: authorization, apiBasePath: module.basePath)
        let configuration = SandboxConfiguration(
            modules: [FleetWitnessModule(witness: witness, receivers: receivers), module]
        )
        let sandbox = try await Sandbox.start(port: port, configuration: configuration)
        let signals = TerminationSignals()
        announce("fleet sandbox listening on \(sandbox.baseURL.absoluteString)")
        _ = await signals.next()
        // Deliveries still queued or being retried are part of the run: wait for them, within reason.
        let drained = Locked(false)
        let mounted = module
        let draining = Task {
            await mounted.waitForWebhookDeliveries()
            drained.withLock { $0 = true }
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(drain * 1000))
        while ContinuousClock.now < deadline, !drained.withLock({ $0 }) {
            try? await Task.sleep(for: .milliseconds(100))
        }
        draining.cancel()
        try output.write(witness.counts(module: module, contentPrefix: FleetWorkload.contentPrefix))
        await sandbox.stop()
    }

}
