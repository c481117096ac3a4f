import Foundation

/// The whole machine's CPU time as Linux's `/proc/stat` counts it (clock ticks, all cores), for
/// one figure: the share the hypervisor stole.
///
/// On a virtual machine, "steal" is time a vCPU was ready to run while the host ran something
/// else. It is the one trace a busy host leaves inside the guest, and a busy host is what delays
/// the wake-ups of halted vCPUs that sequential round trips depend on. The table reports it per
/// workload, and `--rounds-detail` per round, so a reader can tell a slow host from slow code.
struct HostCPUTimes: Sendable, Equatable {
    /// Ticks of every kind, steal included.
    var total: UInt64
    /// Ticks stolen by the hypervisor.
    var steal: UInt64

    /// The counters now, or `nil` where there is no `/proc/stat` (not Linux).
    static func read() -> HostCPUTimes? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        return parse(text)
    }

    /// The counters in `/proc/stat`'s first line, the sum over all cores.
    static func parse(_ text: some StringProtocol) -> HostCPUTimes? {
        guard let line = text.split(separator: "\n", maxSplits: 1).first, line.hasPrefix("cpu ") else { return nil }
        let fields = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
        // user, nice, system, idle, iowait, irq, softirq, steal; the guest columns that may
        // follow are already counted in user and nice.
        guard fields.count >= 8 else { return nil }
        return HostCPUTimes(total: fields.prefix(8).reduce(0, +), steal: fields[7])
    }

    /// The share of the CPU time between `earlier` and these counters that was stolen; `nil` when
    /// no tick passed (or the counters went backwards).
    func stealShare(since earlier: HostCPUTimes) -> Double? {
        guard total > earlier.total, steal >= earlier.steal else { return nil }
        return Double(steal - earlier.steal) / Double(total - earlier.total)
    }

    /// The share of the CPU time from these counters until now that was stolen; `nil` when it
    /// cannot be told.
    func stealShareUntilNow() -> Double? {
        HostCPUTimes.read()?.stealShare(since: self)
    }
}

extension Format {
    /// A steal share as a percentage, or "–" when unknown.
    static func steal(_ share: Double?) -> String {
        share.map { String(format: "%.1f%%", $0 * 100) } ?? "–"
    }

    /// A row whose floor failed, with the hypervisor's steal in its rounds when there was any
    /// worth naming: a floor that fails on a busy host is worth measuring again before profiling.
    static func failure(_ row: Row) -> String {
        let shares = row.roundSteal.compactMap { $0 }
        guard !shares.isEmpty, Stats.median(shares) >= 0.01 else { return row.workload }
        return "\(row.workload) (the hypervisor stole a median \(steal(Stats.median(shares))) of CPU time per round)"
    }
}
