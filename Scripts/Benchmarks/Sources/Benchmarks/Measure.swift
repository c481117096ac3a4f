import Foundation
import HTTPCore
import Synchronization

/// The outcome of timing a variant next to its baseline.
struct PairedSamples: Sendable {
    /// The variant's figure per round.
    var variant: [Double] = []
    /// The baseline's figure per round.
    var baseline: [Double] = []
    /// `variant / baseline` per round.
    var ratios: [Double] = []
    /// Per round, the ratio of the two sides' mean time per call, when the figures above are
    /// per-call medians; `nil` when they already are means.
    var meanRatios: [Double]?
    /// Per round, the share of the machine's CPU time the hypervisor stole.
    var steal: [Double?] = []
}

/// Runs `variant` and `baseline` in alternating order, round after round, so drift in machine
/// load (other processes, thermal state) hits both about equally; returns their samples and the
/// per-round ratio `variant / baseline`.
func paired(
    rounds: Int,
    variant: () async throws -> Double,
    baseline: () async throws -> Double
) async throws -> PairedSamples {
    var result = PairedSamples()
    for round in 0..<rounds {
        let host = HostCPUTimes.read()
        let a: Double
        let b: Double
        if round.isMultiple(of: 2) {
            a = try await variant()
            b = try await baseline()
        } else {
            b = try await baseline()
            a = try await variant()
        }
        result.variant.append(a)
        result.baseline.append(b)
        result.ratios.append(a / b)
        result.steal.append(host?.stealShareUntilNow())
    }
    return result
}

/// Each side's figures, round by round, from one measurement in which the sides took turns.
struct SideRounds: Sendable {
    /// Per side, its figure per round: the median call, or the mean call for whole-round blocks.
    var figures: [[Double]]
    /// Per side, its mean call per round when `figures` are medians; `nil` when they are means.
    var means: [[Double]]?
    /// Per round, the share of the machine's CPU time the hypervisor stole.
    var steal: [Double?] = []

    /// Side `index` next to side `baseline`, round by round.
    func pair(_ index: Int, against baseline: Int) -> PairedSamples {
        let ratios = zip(figures[index], figures[baseline]).map { $0 / $1 }
        let meanRatios = means.map { means in zip(means[index], means[baseline]).map { $0 / $1 } }
        return PairedSamples(
            variant: figures[index],
            baseline: figures[baseline],
            ratios: ratios,
            meanRatios: meanRatios,
            steal: steal
        )
    }
}

/// The order in which `count` sides run in turn `turn` of a round: with two sides A B, B A, B A,
/// A B, so neither always runs right after the other; with more, every side leads equally often
/// and each order is followed by its reverse.
func turnOrder(_ turn: Int, sides count: Int) -> [Int] {
    let shift = (turn / 2) % count
    let rotated = (0..<count).map { ($0 + shift) % count }
    return turn.isMultiple(of: 2) ? rotated : rotated.reversed()
}

/// Times `sides` call by call, taking turns every `chunk` calls within each round (see
/// ``turnOrder(_:sides:)``), and returns each side's median and mean time per call per round.
///
/// A shared machine's speed can swing within seconds. Blocks of a few hundred calls per side
/// (``blocks(rounds:iterations:_:)``) catch such a swing on one side only; chunks of a few dozen
/// calls put the sides under nearly the same conditions while each still runs warm after its
/// first call or two. A chunk of one call (call by call) answers a different question: every call
/// then runs after another side's code has displaced its own from the CPU caches, which costs
/// the side with more code more.
///
/// Rows that share a baseline (a client and its transport alone, each against the raw transport)
/// are timed as sides of one measurement, so both see the same conditions and the same baseline
/// calls.
///
/// Even in chunks, a stall of the whole machine for a few milliseconds (another tenant, the
/// host's scheduler) lands on one side's chunk and moves that round's mean. The median call is
/// what such a stall does not reach, so the floor is read from it; the ratio of means is returned
/// too, and the table shows both.
func interleaved(
    rounds: Int,
    iterations: Int,
    chunk: Int,
    _ sides: [() async throws -> Void]
) async throws -> SideRounds {
    let clock = ContinuousClock()
    let chunk = max(chunk, 1)
    var result = SideRounds(
        figures: Array(repeating: [], count: sides.count),
        means: Array(repeating: [], count: sides.count)
    )
    var calls = Array(repeating: [Double](), count: sides.count)
    for index in calls.indices { calls[index].reserveCapacity(iterations) }
    for _ in 0..<rounds {
        let host = HostCPUTimes.read()
        for index in calls.indices { calls[index].removeAll(keepingCapacity: true) }
        var done = 0
        var turn = 0
        while done < iterations {
            let count = min(chunk, iterations - done)
            for index in turnOrder(turn, sides: sides.count) {
                for _ in 0..<count {
                    let start = clock.now
                    try await sides[index]()
                    calls[index].append(Stats.seconds(clock.now - start))
                }
            }
            done += count
            turn += 1
        }
        for index in calls.indices {
            result.figures[index].append(Stats.median(calls[index]))
            result.means?[index].append(Stats.mean(calls[index]))
        }
        result.steal.append(host?.stealShareUntilNow())
    }
    return result
}

/// Times `sides` in blocks of a whole round each (`iterations` calls), taking turns as
/// ``turnOrder(_:sides:)`` says round after round, and returns each side's mean call per round.
func blocks(rounds: Int, iterations: Int, _ sides: [() async throws -> Void]) async throws -> SideRounds {
    var result = SideRounds(figures: Array(repeating: [], count: sides.count), means: nil)
    for round in 0..<rounds {
        let host = HostCPUTimes.read()
        for index in turnOrder(round, sides: sides.count) {
            result.figures[index].append(try await timePerCall(iterations, sides[index]))
        }
        result.steal.append(host?.stealShareUntilNow())
    }
    return result
}

/// Runs `sides` in rotation, `chunk` calls at a time, for `rounds` rounds (each round starts one
/// side further along), and returns every call's duration in seconds, per side: the diagnostic
/// modes' way of comparing several variants under the same conditions.
func rotatingChunks(rounds: Int, chunk: Int = 25, _ sides: [() async throws -> Void]) async throws -> [[Double]] {
    let clock = ContinuousClock()
    var times = Array(repeating: [Double](), count: sides.count)
    for round in 0..<rounds {
        for offset in sides.indices {
            let index = (offset + round) % sides.count
            for _ in 0..<chunk {
                let start = clock.now
                try await sides[index]()
                times[index].append(Stats.seconds(clock.now - start))
            }
        }
    }
    return times
}

/// The mean time per call of `body` over `count` sequential calls.
func timePerCall(_ count: Int, _ body: () async throws -> Void) async throws -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<count { try await body() }
    return Stats.seconds(clock.now - start) / Double(max(count, 1))
}

/// Requests per second when `workers` tasks each call `body` `perWorker` times, all at once.
func throughput(
    workers: Int,
    perWorker: Int,
    _ body: @escaping @Sendable () async throws -> Void
) async throws
    -> Double
{
    let clock = ContinuousClock()
    let start = clock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<workers {
            group.addTask {
                for _ in 0..<perWorker { try await body() }
            }
        }
        try await group.waitForAll()
    }
    return Double(workers * perWorker) / Stats.seconds(clock.now - start)
}

/// Keeps results observable so the optimiser cannot drop the work that produced them.
enum Sink {
    private static let total = Mutex(0)

    static func consume(_ value: Int) {
        total.withLock { $0 &+= value }
    }
}

/// The process's CPU time, all threads: what a side costs beyond its wall-clock time.
enum ProcessCPU {
    static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
