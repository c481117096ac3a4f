import Foundation

/// The fleet's outcome: the lines of one run summed, the goal checked, and the report printed.
struct FleetReport: Sendable, Equatable {
    var workers = 0
    var requests = 0
    var refreshes = 0
    var expiries = 0
    var invalidGrant = 0
    var throttled = 0
    /// Admitted API requests over what the rate limit allowed during the run.
    var limitUse = 0.0
    var cacheHits = 0
    /// Handler runs beyond the first for an event, over every replica.
    var duplicateDeliveries = 0
    /// Writes the fleet set out to make that are not in the sandbox exactly once.
    var lostWrites = 0
    /// Operations the workers started, and the ones that failed by error code.
    var operations = 0
    var failures: [String: Int] = [:]
    var signedOutWorkers = 0
    var receivers = 0
    var eventsHandled = 0
    /// Redeliveries the receivers answered without running the handler.
    var answeredAsHandled = 0
    var answeredAsInFlight = 0

    /// Sums `lines` (one JSON object per line; blank lines are skipped).
    ///
    /// - Throws: `FleetReportError` for a line that is not a count, or without exactly one
    ///   sandbox line.
    init(lines: [String]) throws {
        let decoder = JSONDecoder()
        var sandbox: FleetCounts?
        var handled: [Int: Int] = [:]
        var (creates, edits) = (0, 0)
        var (started, ended) = (Double.infinity, -Double.infinity)
        for (number, line) in lines.enumerated() {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            guard let counts = try? decoder.decode(FleetCounts.self, from: Data(text.utf8)) else {
                throw FleetReportError("line \(number + 1) is not a fleet count")
            }
            switch counts.role {
            case "sandbox":
                guard sandbox == nil else { throw FleetReportError("more than one sandbox line") }
                sandbox = counts
            case "worker":
                workers += 1
                operations += (counts.walks ?? 0) + (counts.creates ?? 0) + (counts.edits ?? 0)
                (creates, edits) = (creates + (counts.creates ?? 0), edits + (counts.edits ?? 0))
                failures.merge(counts.failures ?? [:], uniquingKeysWith: +)
                if counts.signedOut == true { signedOutWorkers += 1 }
                started = min(started, counts.startedAt ?? .infinity)
                ended = max(ended, counts.endedAt ?? -.infinity)
            case "receiver":
                receivers += 1
                for id in counts.handled ?? [] { handled[id, default: 0] += 1 }
                answeredAsHandled += counts.duplicatesAnswered ?? 0
                answeredAsInFlight += counts.inFlightAnswered ?? 0
            default:
                throw FleetReportError("line \(number + 1) has an unknown role \"\(counts.role.prefix(40))\"")
            }
        }
        guard let sandbox else { throw FleetReportError("no sandbox line") }
        requests = sandbox.requests ?? 0
        refreshes = sandbox.refreshes ?? 0
        expiries = sandbox.expiries ?? 0
        invalidGrant = sandbox.invalidGrant ?? 0
        throttled = sandbox.throttled ?? 0
        cacheHits = sandbox.notModified ?? 0
        // The rate is judged over the workers' run, from the first task's start to the last one's
        // end; without their times, over the sandbox's first to last request.
        let span = ended > started ? ended - started : sandbox.seconds ?? 0
        let allowed = Double(sandbox.limitRequests ?? 0) * span / max(sandbox.limitSeconds ?? 1, 0.001)
        limitUse = allowed > 0 ? Double(requests - throttled) / allowed : 0
        duplicateDeliveries = handled.values.reduce(0) { $0 + $1 - 1 }
        eventsHandled = handled.count
        let (stored, distinct) = (sandbox.storedTodos ?? 0, sandbox.distinctTodos ?? 0)
        lostWrites = abs(creates - distinct) + (stored - distinct) + abs(edits - (sandbox.editedTodos ?? 0))
    }

    /// The goal of the coordinated fleet, each unmet part named; empty when it is met.
    var unmetGoals: [String] {
        var unmet: [String] = []
        if refreshes != expiries { unmet.append("refreshes (\(refreshes)) ≠ expiries (\(expiries))") }
        if invalidGrant > 0 { unmet.append("invalid_grant > 0") }
        if throttled > 0 { unmet.append("throttled > 0") }
        if limitUse < 0.9 { unmet.append("limit_use < 0.90") }
        if duplicateDeliveries > 0 { unmet.append("duplicate_deliveries > 0") }
        if lostWrites > 0 { unmet.append("lost_writes > 0") }
        return unmet
    }

    /// Whether the run shows what an uncoordinated fleet suffers: wasted or refused refreshes,
    /// 429s, or an event handled twice.
    var showsFailures: Bool {
        refreshes > expiries || invalidGrant > 0 || throttled > 0 || duplicateDeliveries > 0
    }

    /// The report's last line, exactly as the issue spells it.
    var line: String {
        "fleet: workers=\(workers) requests=\(requests) refreshes=\(refreshes) expiries=\(expiries)"
            + " invalid_grant=\(invalidGrant) throttled=\(throttled) limit_use=\(String(format: "%.2f", limitUse))"
            + " cache_hits=\(cacheHits) duplicate_deliveries=\(duplicateDeliveries) lost_writes=\(lostWrites)"
    }

    /// The lines before the last: what the workers and receivers did.
    var details: [String] {
        let failed = failures.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return [
            "operations: \(operations) started by \(workers) workers; failed: \(failed.isEmpty ? "none" : failed)",
            "workers signed out by a refused refresh: \(signedOutWorkers)",
            "receivers: \(receivers) replicas handled \(eventsHandled) events; redeliveries answered without"
                + " running the handler: \(answeredAsHandled) already handled, \(answeredAsInFlight) in flight elsewhere",
        ]
    }
}

/// A fleet count line that cannot be summed.
struct FleetReportError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
