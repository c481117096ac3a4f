import Foundation
import HTTPCore
import Synchronization

enum Format {
    static func ratio(_ value: Double) -> String {
        String(format: "%.2f", value)
    }

    static func value(_ value: Double, _ unit: Unit) -> String {
        guard value.isFinite else { return "–" }
        switch unit {
        case .time:
            if value >= 1 { return String(format: "%.2f s", value) }
            if value >= 1e-3 { return String(format: "%.2f ms", value * 1e3) }
            return String(format: "%.1f µs", value * 1e6)
        case .throughput:
            return String(format: "%.0f req/s", value)
        case .kibibytes:
            return String(format: "%.1f MiB", value / 1024)
        }
    }

    /// Median plus the p10–p90 spread of `samples`.
    static func summary(_ samples: [Double], _ unit: Unit) -> (median: String, spread: String) {
        guard !samples.isEmpty else { return ("–", "–") }
        let median = value(Stats.median(samples), unit)
        let low = value(Stats.percentile(samples, 0.1), unit)
        let high = value(Stats.percentile(samples, 0.9), unit)
        return (median, samples.count > 1 ? "\(low) – \(high)" : "–")
    }

    /// Each row's per-round ratios in round order, as a Markdown list: how far a ratio moves
    /// between rounds of one run, which the table's median hides.
    static func roundRatios(_ rows: [Row]) -> String {
        var lines = ["Per-round ratios, in round order:", ""]
        for row in rows {
            guard let ratios = row.ratios, !ratios.isEmpty else { continue }
            let values = ratios.map(ratio).joined(separator: " ")
            let note = row.note.isEmpty ? "" : " (\(row.note))"
            let steals = row.roundSteal.map(Format.steal).joined(separator: " ")
            let steal = row.roundSteal.isEmpty ? "" : "; steal " + steals
            let detail = "\(values)\(steal)\(quietRounds(row))\(perProcess(row))"
            lines.append("- \(row.workload), \(row.variant)\(note): \(detail)")
        }
        return lines.joined(separator: "\n")
    }

    /// The rounds the hypervisor stole least in: in some runs the sequential rows lost a few
    /// hundredths to raw in rounds with steal, so the median of the quiet rounds tells a busy
    /// host from the code's own cost. The floors are still read from every round.
    static func quietRounds(_ row: Row, below limit: Double = 0.01) -> String {
        guard let ratios = row.ratios, row.roundSteal.count == ratios.count else { return "" }
        let quiet = zip(ratios, row.roundSteal).compactMap { ratio, steal in
            steal.map { $0 < limit ? ratio : nil } ?? nil
        }
        guard !quiet.isEmpty else { return "; no round with steal under \(Format.steal(limit))" }
        return "; the \(quiet.count) with steal under \(Format.steal(limit)): median \(ratio(Stats.median(quiet)))"
    }

    /// Each process's median ratio, when several shared the row's rounds: a process whose
    /// medians stand apart from the others' shows a bias the pooled median did not take in full.
    static func perProcess(_ row: Row) -> String {
        let medians = row.processRatios
        guard !medians.isEmpty else { return "" }
        let rounds = row.processRounds.map(String.init).joined(separator: "+")
        return "; per process (\(rounds) rounds): medians " + medians.map(ratio).joined(separator: " ")
    }

    /// The rows as a GitHub Markdown table.
    static func table(_ rows: [Row]) -> String {
        var lines = [
            "| Workload | Measured | Median | p10 – p90 | Baseline | Baseline median | Ratio | Ratio of means | Floor | |",
            "| --- | --- | ---: | --- | --- | ---: | ---: | ---: | --- | --- |",
        ]
        for row in rows {
            let measured = summary(row.samples, row.unit)
            let baseline = summary(row.baselineSamples, row.unit)
            let ratio = row.ratio.map { Format.ratio($0) } ?? "–"
            let meanRatio = row.meanRatio.map { Format.ratio($0) } ?? "–"
            let verdict: String
            switch row.passes {
            case .some(true): verdict = "ok"
            case .some(false): verdict = "**FAIL**"
            case .none: verdict = ""
            }
            let note = row.note.isEmpty ? "" : " (\(row.note))"
            let cells = [
                row.workload, row.variant + note, measured.median, measured.spread, row.baseline ?? "–",
                row.baseline == nil ? "–" : baseline.median, ratio, meanRatio, row.floor?.text ?? "–", verdict,
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }
}
