import Foundation

/// Splitting a workload's rounds over several processes of this executable.
///
/// How fast a side runs depends on more than its code: where a process's threads settle, how
/// its code and data happen to be laid out, which caches and predictors they share. All of that
/// is fixed when the process starts and stays for its life, so one process can be slower on one
/// side in every round. Rounds taken in one process cannot show such a bias, let alone average it
/// out; rounds pooled from several can, as JMH's forks do.
enum ProcessRounds {
    /// How `rounds` rounds are shared by `processes` processes: as evenly as possible, the
    /// earlier processes taking one more when they do not divide. Never a process without a round.
    static func shares(rounds: Int, processes: Int) -> [Int] {
        let count = max(min(processes, rounds), 1)
        let rounds = max(rounds, 1)
        return (0..<count).map { rounds / count + ($0 < rounds % count ? 1 : 0) }
    }

    /// What one process reports for one workload.
    struct Report: Codable {
        var rows: [Row]
        /// The share of the machine's CPU time the hypervisor stole while the workload ran.
        var steal: Double?
    }

    /// The rows of several processes, each row's rounds in process order, as one row.
    ///
    /// Every process must have measured the same rows in the same order; anything else is an
    /// error rather than a table that pairs unlike figures.
    static func merge(_ reports: [Report]) throws -> [Row] {
        guard let first = reports.first else { return [] }
        var merged = first.rows
        for index in merged.indices { merged[index].processRounds = [merged[index].samples.count] }
        for report in reports.dropFirst() {
            guard report.rows.count == merged.count else {
                throw BenchError("a process measured \(report.rows.count) rows, the first \(merged.count)")
            }
            for (index, row) in report.rows.enumerated() {
                guard row.workload == merged[index].workload, row.variant == merged[index].variant else {
                    throw BenchError("a process measured \(row.variant), the first \(merged[index].variant)")
                }
                merged[index].append(rounds: row)
            }
        }
        return merged
    }

    /// The mean steal share over the processes that could read it.
    static func steal(_ reports: [Report]) -> Double? {
        let shares = reports.compactMap(\.steal)
        return shares.isEmpty ? nil : Stats.mean(shares)
    }

    /// Encodes a report for the parent; non-finite figures (a row without a ratio) survive.
    static func encode(_ report: Report) throws -> Data {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: nonFinite.positiveInfinity,
            negativeInfinity: nonFinite.negativeInfinity,
            nan: nonFinite.nan
        )
        return try encoder.encode(report)
    }

    static func decode(_ data: Data) throws -> Report {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: nonFinite.positiveInfinity,
            negativeInfinity: nonFinite.negativeInfinity,
            nan: nonFinite.nan
        )
        return try decoder.decode(Report.self, from: data)
    }

    /// How the report spells figures JSON has no number for.
    private static let nonFinite = (positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
}

extension Row {
    /// Adds another process's rounds of the same row after this one's.
    mutating func append(rounds other: Row) {
        samples += other.samples
        baselineSamples += other.baselineSamples
        ratios = ratios.map { $0 + (other.ratios ?? []) }
        meanRatios = meanRatios.map { $0 + (other.meanRatios ?? []) }
        roundSteal += other.roundSteal
        processRounds.append(other.samples.count)
    }

    /// The median ratio of each process's own rounds, in process order; empty for a row measured
    /// in one process.
    var processRatios: [Double] {
        guard processRounds.count > 1, let ratios, ratios.count == processRounds.reduce(0, +) else { return [] }
        var start = 0
        return processRounds.map { count in
            defer { start += count }
            return Stats.median(Array(ratios[start..<(start + count)]))
        }
    }
}

extension Workload {
    /// Whether the workload's rounds are shared by several processes when `--processes` asks
    /// for more than one: the per-request rows, whose floors read small differences. Pagination,
    /// decoding, the download memory row and the server ceiling run once, in the parent.
    var splitsRounds: Bool {
        switch self {
        case .get, .cache, .concurrent, .hooks: true
        case .pagination, .decode, .download, .sandbox, .openapi, .sharedcache, .ceiling: false
        }
    }
}

extension Runner {
    /// Runs `workload` in one child process per entry of `shares` (its number of rounds), one
    /// after another, and keeps the merged rows. Each child starts its own sandbox the way this
    /// process did.
    ///
    /// Waiting on a child blocks this thread: the parent has nothing else to do meanwhile, and a
    /// parent that stays idle disturbs the child's measurement least.
    func run(_ workload: Workload, roundsPerProcess shares: [Int], placement: ServerPlacement, quick: Bool) throws {
        var reports: [ProcessRounds.Report] = []
        for rounds in shares {
            var arguments = [
                "rounds-child", "--workloads", workload.rawValue, "--rounds", String(rounds),
                "--iterations", String(settings.iterations), "--chunk", String(settings.chunk ?? 0),
                "--server", placement.rawValue,
            ]
            if quick { arguments.append("--quick") }
            reports.append(try ProcessRounds.decode(Data(try runSelf(arguments).utf8)))
        }
        rows += try ProcessRounds.merge(reports)
        workloadSteal.append((workload, ProcessRounds.steal(reports)))
    }
}
