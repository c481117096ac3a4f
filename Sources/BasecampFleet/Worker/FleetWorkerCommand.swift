import ArgumentParser
import Basecamp
import Foundation
import HTTPCore
import HTTPCorePostgres

/// `basecamp-fleet worker`: one process of the fleet: concurrent tasks on the one account through
/// one Basecamp client, for a number of seconds, then its count line.
///
/// Coordinated, the client's sign-in, rate limit and cache are the fleet's, in PostgreSQL;
/// uncoordinated, each lives in this process, as they would for a job written without them.
struct FleetWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Works on the fleet's account with concurrent tasks for a while."
    )

    @OptionGroup var fleet: FleetOptions

    @Option(help: "This worker's number.")
    var worker = 1

    @Option(help: "Concurrent tasks.")
    var tasks = 4

    @Option(help: "Seconds to work.")
    var seconds = 60.0

    @OptionGroup var output: CountsOutput

    func validate() throws {
        try fleet.requireSandbox()
    }

    func run() async throws {
        // A connection for each task, one for the refresh lock held while a task refreshes, and
        // one for the limiter's lease, taken while tasks may be inside the store or the cache.
        let database = try fleet.database(connections: tasks + 2)
        let parts = try await FleetClientParts(fleet: fleet, database: database)
        var config = BasecampConfig(baseURL: fleet.apiURL, enableCache: true)
        config.cache = parts.cache
        config.rateLimiter = parts.limiter
        let basecamp = try BasecampClient(auth: parts.auth, userAgent: FleetOptions.userAgent, config: config)
        let account = try basecamp.forAccount(fleet.accountID)
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        var total = FleetCounts(role: "worker")
        total.worker = worker
        total.startedAt = Date().timeIntervalSince1970
        await withTaskGroup(of: FleetCounts.self) { group in
            for task in 1...max(tasks, 1) {
                let workload = FleetWorkload(
                    account: account,
                    name: "\(fleet.run)-w\(worker)-t\(task)",
                    deadline: deadline
                )
                group.addTask { await workload.run() }
            }
            for await counts in group { total.add(counts) }
        }
        total.endedAt = Date().timeIntervalSince1970
        await database?.shutdown()
        try output.write(total)
    }
}

extension FleetCounts {
    /// Adds a task's counts to its worker's.
    mutating func add(_ other: FleetCounts) {
        walks = (walks ?? 0) + (other.walks ?? 0)
        creates = (creates ?? 0) + (other.creates ?? 0)
        createsDone = (createsDone ?? 0) + (other.createsDone ?? 0)
        edits = (edits ?? 0) + (other.edits ?? 0)
        editsDone = (editsDone ?? 0) + (other.editsDone ?? 0)
        failures = (failures ?? [:]).merging(other.failures ?? [:], uniquingKeysWith: +)
        signedOut = (signedOut ?? false) || (other.signedOut ?? false)
    }
}
