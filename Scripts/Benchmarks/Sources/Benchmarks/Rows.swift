import Foundation
import HTTPCore
import Synchronization

/// What a floor demands of a row's ratio.
enum Floor: Sendable, Codable, Equatable {
    case atMost(Double)
    case atLeast(Double)

    func holds(_ ratio: Double) -> Bool {
        switch self {
        case .atMost(let limit): ratio <= limit
        case .atLeast(let limit): ratio >= limit
        }
    }

    var text: String {
        switch self {
        case .atMost(let limit): "≤ " + Format.ratio(limit)
        case .atLeast(let limit): "≥ " + Format.ratio(limit)
        }
    }
}

/// How a row's samples are shown.
enum Unit: Sendable, Codable, Equatable {
    /// Seconds per operation, shown as µs or ms.
    case time
    /// Operations per second.
    case throughput
    /// Kibibytes (peak RSS).
    case kibibytes
}

/// One line of the results table: a measured variant, optionally next to a baseline measured in
/// the same rounds.
struct Row: Sendable, Codable, Equatable {
    var workload: String
    var variant: String
    var unit: Unit
    var samples: [Double]
    var baseline: String?
    var baselineSamples: [Double] = []
    /// Per-round ratios (paired, so slow drift between rounds cancels); `nil` for no ratio.
    var ratios: [Double]?
    /// Per-round ratios of mean times, shown next to `ratios` when those compare medians.
    var meanRatios: [Double]? = nil
    var floor: Floor?
    var note: String = ""
    /// Per round, the share of the machine's CPU time the hypervisor stole (see ``HostCPUTimes``).
    var roundSteal: [Double?] = []
    /// How many of the rounds each process measured, in order, when several did (see
    /// ``ProcessRounds``); empty when the rounds are this process's own.
    var processRounds: [Int] = []

    var ratio: Double? { ratios.flatMap { $0.isEmpty ? nil : Stats.median($0) } }
    var meanRatio: Double? { meanRatios.flatMap { $0.isEmpty ? nil : Stats.median($0) } }
    var passes: Bool? {
        guard let floor, let ratio else { return nil }
        return floor.holds(ratio)
    }
}

extension Row {
    /// A row for a variant measured next to its baseline in the same rounds.
    init(
        workload: String,
        variant: String,
        unit: Unit,
        measured: PairedSamples,
        baseline: String,
        floor: Floor? = nil,
        note: String = ""
    ) {
        self.init(
            workload: workload,
            variant: variant,
            unit: unit,
            samples: measured.variant,
            baseline: baseline,
            baselineSamples: measured.baseline,
            ratios: measured.ratios,
            meanRatios: measured.meanRatios,
            floor: floor,
            note: note,
            roundSteal: measured.steal
        )
    }
}

enum Stats {
    static func median(_ values: [Double]) -> Double {
        percentile(values, 0.5)
    }

    static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
    }

    /// Linear-interpolated percentile; `fraction` in 0...1.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard let first = sorted.first else { return .nan }
        guard sorted.count > 1 else { return first }
        let position = fraction * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let weight = position - Double(lower)
        return sorted[lower] * (1 - weight) + sorted[upper] * weight
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
