import Foundation
import Testing

@testable import Benchmarks

@Suite("A workload's rounds shared by several processes")
struct ProcessRoundsTests {
    @Test(
        "Rounds are shared as evenly as possible, earlier processes taking the remainder, none left empty",
        arguments: [
            (11, 3, [4, 4, 3]), (12, 3, [4, 4, 4]), (3, 2, [2, 1]), (2, 5, [1, 1]), (7, 1, [7]), (5, 0, [5]),
        ]
    )
    func shares(rounds: Int, processes: Int, expected: [Int]) {
        let shares = ProcessRounds.shares(rounds: rounds, processes: processes)
        #expect(shares == expected)
        #expect(shares.reduce(0, +) == rounds)
    }

    @Test("Merged rows keep every process's rounds in process order, and each process's median ratio")
    func mergesRoundsInOrder() throws {
        let first = row(samples: [2, 4], baseline: [1, 2], ratios: [2, 2], steal: [0, 0.5])
        let second = row(samples: [3], baseline: [2], ratios: [1.5], steal: [nil])
        let third = row(samples: [9, 8, 7], baseline: [9, 8, 7], ratios: [1, 1.2, 1.1], steal: [0, 0, 0])
        let merged = try ProcessRounds.merge([
            .init(rows: [first], steal: 0.01), .init(rows: [second], steal: nil), .init(rows: [third], steal: 0.03),
        ])

        #expect(merged.count == 1)
        #expect(merged[0].samples == [2, 4, 3, 9, 8, 7])
        #expect(merged[0].baselineSamples == [1, 2, 2, 9, 8, 7])
        #expect(merged[0].ratios == [2, 2, 1.5, 1, 1.2, 1.1])
        #expect(merged[0].meanRatios == [2, 2, 1.5, 1, 1.2, 1.1])
        #expect(merged[0].roundSteal == [0, 0.5, nil, 0, 0, 0])
        #expect(merged[0].processRounds == [2, 1, 3])
        #expect(merged[0].processRatios == [2, 1.5, 1.1])
        #expect(merged[0].ratio == 1.35)
    }

    @Test("A single process's row reports no per-process medians")
    func oneProcess() throws {
        let merged = try ProcessRounds.merge([.init(rows: [row(samples: [1], baseline: [1], ratios: [1])], steal: nil)])
        #expect(merged[0].processRounds == [1])
        #expect(merged[0].processRatios.isEmpty)
        #expect(try ProcessRounds.merge([]).isEmpty)
    }

    @Test("Processes that measured different rows are an error, not a table pairing unlike figures")
    func refusesUnlikeRows() {
        let a = row(samples: [1], baseline: [1], ratios: [1])
        var b = a
        b.variant = "another variant"
        #expect(throws: BenchError.self) {
            try ProcessRounds.merge([.init(rows: [a], steal: nil), .init(rows: [b], steal: nil)])
        }
        #expect(throws: BenchError.self) {
            try ProcessRounds.merge([.init(rows: [a], steal: nil), .init(rows: [a, a], steal: nil)])
        }
    }

    @Test("The steal of a split workload is the mean over the processes that could read it")
    func stealMean() {
        #expect(
            ProcessRounds.steal([
                .init(rows: [], steal: 0.01), .init(rows: [], steal: nil), .init(rows: [], steal: 0.03),
            ]) == 0.02
        )
        #expect(ProcessRounds.steal([.init(rows: [], steal: nil)]) == nil)
    }

    @Test("A report survives the trip from child to parent, floors, units and non-finite figures included")
    func reportRoundTrip() throws {
        var withFloor = row(samples: [1.5, .infinity], baseline: [1, 2], ratios: [1.5, 0.5])
        withFloor.floor = .atLeast(0.9)
        withFloor.unit = .throughput
        let noRatio = Row(workload: "6. decode", variant: "x", unit: .time, samples: [.nan], baseline: nil, ratios: nil)
        let report = ProcessRounds.Report(rows: [withFloor, noRatio], steal: 0.002)

        let decoded = try ProcessRounds.decode(try ProcessRounds.encode(report))

        #expect(decoded.rows[0] == withFloor)
        #expect(decoded.steal == 0.002)
        #expect(decoded.rows[1].samples.count == 1)
        #expect(decoded.rows[1].samples[0].isNaN)
        #expect(decoded.rows[1].ratios == nil)
        #expect(decoded.rows[1].floor == nil)
    }

    private func row(samples: [Double], baseline: [Double], ratios: [Double], steal: [Double?] = []) -> Row {
        Row(
            workload: "2. 304 revalidation",
            variant: "client",
            unit: .time,
            samples: samples,
            baseline: "raw",
            baselineSamples: baseline,
            ratios: ratios,
            meanRatios: ratios,
            floor: .atMost(1.1),
            roundSteal: steal
        )
    }
}
