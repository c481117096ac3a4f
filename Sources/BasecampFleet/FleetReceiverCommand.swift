import ArgumentParser
import Basecamp
import BasecampSandbox
import CLISupport
import Foundation
import HTTPCore
import HTTPCorePostgres
import HTTPCoreWebhooks
import HTTPCoreWebhooksHummingbird
import Hummingbird
import Logging
import ServiceLifecycle

/// `basecamp-fleet receiver`: one replica of a web app receiving the account's webhooks.
///
/// Its handler takes a moment, and longer for one event in `--slow-every` (a slow database, a
/// big export): longer than the sandbox waits, so the sandbox delivers that event again and the
/// balancer hands the redelivery to another replica. Coordinated, the replicas share a
/// PostgreSQL ledger and the redelivery is answered without running the handler again;
/// uncoordinated, each remembers only what it handled itself.
struct FleetReceiverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receiver",
        abstract: "Receives the fleet's webhooks as one replica of several."
    )

    @OptionGroup var fleet: FleetOptions

    @Option(help: "This replica's number.")
    var replica = 1

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 0

    @Option(help: "One event in this many (by id) is slow to handle.")
    var slowEvery = 10

    @Option(help: "Seconds a slow event takes.")
    var slowSeconds = 1.6

    @OptionGroup var output: CountsOutput

    func run() async throws {
        let database = try fleet.database(connections: 2)
        let secret = BasecampSandboxModule.defaultWebhookSecret
        var receiver: WebhookReceiver<WebhookEvent>
        if let database {
            let ledger = PostgresDeliveryLedger(database: database, receiver: "\(fleet.run)-basecamp")
            receiver = WebhookReceiver(signature: BasecampWebhooks.signature(secret: secret), ledger: ledger)
            receiver.decode = { try BasecampWebhooks.decodeEvent($0) }
        } else {
            receiver = BasecampWebhooks.receiver(secret: secret)
        }
        let handled = Locked<[Int]>([])
        let (slowEvery, slowSeconds) = (max(slowEvery, 1), slowSeconds)
        receiver.onAny { event, _ in
            let id = Int(event.id ?? 0)
            let pause = id % slowEvery == 0 ? slowSeconds : 0.02
            try await Task.sleep(for: .milliseconds(Int64(pause * 1000)))
            handled.withLock { $0.append(id) }
        }
        let answered = Locked((duplicates: 0, inFlight: 0))
        let router = Router()
        router.webhooks("/webhooks", receiver: receiver) { result in
            switch result {
            case .duplicate: answered.withLock { $0.duplicates += 1 }
            case .inFlight: answered.withLock { $0.inFlight += 1 }
            default: break
            }
        }
        let replica = replica
        var quiet = Logger(label: "basecamp-fleet")
        quiet.logLevel = .critical
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? 0
                announce("fleet receiver \(replica) listening on http://127.0.0.1:\(bound)/webhooks")
            },
            logger: quiet
        )
        let signals = TerminationSignals()
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: quiet))
        let serving = Task { try await group.run() }
        _ = await signals.next()
        await group.triggerGracefulShutdown()
        _ = try? await serving.value
        await database?.shutdown()
        var counts = FleetCounts(role: "receiver")
        counts.replica = replica
        counts.handled = handled.withLock { $0 }
        (counts.duplicatesAnswered, counts.inFlightAnswered) = answered.withLock { ($0.duplicates, $0.inFlight) }
        try output.write(counts)
    }
}
