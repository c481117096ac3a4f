import Testing

@testable import Benchmarks

@Suite("The hypervisor's steal, read from /proc/stat")
struct HostCPUTests {
    @Test("The all-cores line gives every kind of tick and the stolen ones; guest columns are not counted twice")
    func parsesTheFirstLine() {
        let text = """
            cpu  100 5 20 800 10 1 4 60 30 0
            cpu0 50 2 10 400 5 1 2 30 15 0
            intr 12345
            """
        #expect(HostCPUTimes.parse(text) == HostCPUTimes(total: 1000, steal: 60))
    }

    @Test("Text that is not /proc/stat gives no counters", arguments: ["", "intr 1 2 3", "cpu  1 2 3"])
    func refusesOtherText(text: String) {
        #expect(HostCPUTimes.parse(text) == nil)
    }

    @Test("The share is stolen ticks over all ticks between two readings")
    func stealShare() {
        let before = HostCPUTimes(total: 1000, steal: 60)
        let after = HostCPUTimes(total: 1200, steal: 110)
        #expect(after.stealShare(since: before) == 0.25)
        #expect(Format.steal(after.stealShare(since: before)) == "25.0%")
    }

    @Test("No ticks between readings, or counters that went backwards, give no share")
    func noShareWithoutTicks() {
        let reading = HostCPUTimes(total: 1000, steal: 60)
        #expect(reading.stealShare(since: reading) == nil)
        #expect(HostCPUTimes(total: 1100, steal: 50).stealShare(since: reading) == nil)
        #expect(Format.steal(nil) == "–")
    }

    @Test("Every round of a measurement reports its steal where the machine has /proc/stat")
    func roundsCarrySteal() async throws {
        let rounds = try await interleaved(rounds: 4, iterations: 2, chunk: 1, [{}, {}])
        #expect(rounds.steal.count == 4)
        #expect(rounds.pair(0, against: 1).steal.count == 4)
    }

    @Test("The detail names the median ratio of the rounds with little steal, and says when there were none")
    func quietRounds() {
        var row = Row(workload: "w", variant: "v", unit: .time, samples: [], ratios: [1.10, 1.00, 1.20, 1.02])
        row.roundSteal = [0.20, 0.0, nil, 0.005]
        #expect(Format.quietRounds(row) == "; the 2 with steal under 1.0%: median 1.01")
        row.roundSteal = [0.20, 0.05, nil, 0.5]
        #expect(Format.quietRounds(row) == "; no round with steal under 1.0%")
        row.roundSteal = []
        #expect(Format.quietRounds(row) == "")
    }

    @Test("A failed floor names the steal in its rounds when the host was busy, and only then")
    func failureNamesSteal() {
        var row = Row(workload: "2. 304 revalidation", variant: "v", unit: .time, samples: [], ratios: [1.2])
        row.roundSteal = [0.36, 0.12, nil, 0.17]
        #expect(
            Format.failure(row) == "2. 304 revalidation (the hypervisor stole a median 17.0% of CPU time per round)"
        )
        row.roundSteal = [0.0, 0.004, 0.02]
        #expect(Format.failure(row) == "2. 304 revalidation")
        row.roundSteal = [nil]
        #expect(Format.failure(row) == "2. 304 revalidation")
    }
}
