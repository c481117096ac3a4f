import Testing

@testable import Benchmarks

@Suite("How the benchmark's sides take turns")
struct TakingTurnsTests {
    @Test("Two sides go A B, B A, B A, A B, so neither always runs right after the other")
    func twoSides() {
        let orders = (0..<8).map { turnOrder($0, sides: 2) }
        #expect(orders == [[0, 1], [1, 0], [1, 0], [0, 1], [0, 1], [1, 0], [1, 0], [0, 1]])
    }

    @Test("Over a cycle every side takes every place equally often", arguments: [2, 3, 4])
    func everyPlaceEquallyOften(sides: Int) {
        let cycle = (0..<(2 * sides)).map { turnOrder($0, sides: sides) }
        for order in cycle {
            #expect(order.sorted() == Array(0..<sides))
        }
        for place in 0..<sides {
            let counts = Dictionary(grouping: cycle.map { $0[place] }, by: { $0 }).mapValues(\.count)
            #expect(counts == Dictionary(uniqueKeysWithValues: (0..<sides).map { ($0, 2) }))
        }
    }

    @Test("Chunks run every side the same number of times, a short last chunk included")
    func chunksCoverEveryCall() async throws {
        let calls = CallLog()
        let rounds = try await interleaved(
            rounds: 3,
            iterations: 7,
            chunk: 3,
            [{ calls.record(0) }, { calls.record(1) }, { calls.record(2) }]
        )
        #expect(calls.counts == [21, 21, 21])
        // Chunks of 3, 3 and 1 per side: the log switches side after 3, 3, 3, 3, 3, 3, then 1s.
        #expect(Array(calls.sequence.prefix(9)) == [0, 0, 0, 1, 1, 1, 2, 2, 2])
        #expect(Array(calls.sequence[9..<18]) == [2, 2, 2, 1, 1, 1, 0, 0, 0])
        #expect(Array(calls.sequence[18..<21]) == [1, 2, 0])
        #expect(rounds.figures.map(\.count) == [3, 3, 3])
        #expect(rounds.means?.map(\.count) == [3, 3, 3])
    }

    @Test("A pair's ratios divide one side's figures by the other's, round by round")
    func pairRatios() {
        let rounds = SideRounds(figures: [[2, 3], [4, 5], [1, 2]], means: [[4, 6], [1, 1], [2, 4]])
        let pair = rounds.pair(1, against: 2)
        #expect(pair.variant == [4, 5])
        #expect(pair.baseline == [1, 2])
        #expect(pair.ratios == [4, 2.5])
        #expect(pair.meanRatios == [0.5, 0.25])
        #expect(SideRounds(figures: [[2], [1]], means: nil).pair(0, against: 1).meanRatios == nil)
    }

    @Test("Whole-round blocks give each side one mean per round")
    func blocksPerRound() async throws {
        let calls = CallLog()
        let rounds = try await blocks(rounds: 4, iterations: 5, [{ calls.record(0) }, { calls.record(1) }])
        #expect(calls.counts == [20, 20])
        #expect(rounds.figures.map(\.count) == [4, 4])
        #expect(rounds.means == nil)
        // Round 0 starts with side 0, rounds 1 and 2 with side 1, round 3 with side 0 again.
        let firsts = stride(from: 0, to: 40, by: 10).map { calls.sequence[$0] }
        #expect(firsts == [0, 1, 1, 0])
    }
}

/// Which side ran, in order: the sides run one after another on the test's task.
private final class CallLog {
    private(set) var sequence: [Int] = []

    func record(_ side: Int) { sequence.append(side) }

    var counts: [Int] {
        let most = (sequence.max() ?? -1) + 1
        return (0..<most).map { side in sequence.count(where: { $0 == side }) }
    }
}
