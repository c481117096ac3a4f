import Testing

@testable import BasecampFleet

@Suite("Fleet report")
struct FleetReportTests {
    static let sandbox =
        #"{"role":"sandbox","requests":310,"throttled":0,"not_modified":90,"refreshes":10,"invalid_grant":0,"expiries":10,"seconds":60,"limit_requests":50,"limit_seconds":10,"stored_todos":40,"distinct_todos":40,"edited_todos":12}"#

    static func worker(_ number: Int, creates: Int, edits: Int, signedOut: Bool = false, run: String = "") -> String {
        #"{"role":"worker","worker":\#(number),"walks":30,"creates":\#(creates),"creates_done":\#(creates),"edits":\#(edits),"edits_done":\#(edits),"failures":{},"signed_out":\#(signedOut)\#(run)}"#
    }

    @Test("a coordinated run's lines sum to the issue's line and meet the goal")
    func coordinated() throws {
        let lines = [
            Self.sandbox, Self.worker(1, creates: 25, edits: 7), "", Self.worker(2, creates: 15, edits: 5),
            #"{"role":"receiver","replica":1,"handled":[1,2,3]}"#, #"{"role":"receiver","replica":2,"handled":[4]}"#,
        ]
        let report = try FleetReport(lines: lines)
        #expect(
            report.line
                == "fleet: workers=2 requests=310 refreshes=10 expiries=10 invalid_grant=0 throttled=0 limit_use=1.03 cache_hits=90 duplicate_deliveries=0 lost_writes=0"
        )
        #expect(report.unmetGoals.isEmpty)
        #expect(!report.showsFailures)
    }

    @Test("an event handled on two replicas, a missing write and a lost sign-in show as failures")
    func uncoordinated() throws {
        let sandbox = Self.sandbox.replacingOccurrences(of: #""refreshes":10"#, with: #""refreshes":17"#)
            .replacingOccurrences(of: #""throttled":0"#, with: #""throttled":25"#)
        let lines = [
            sandbox, Self.worker(1, creates: 26, edits: 7), Self.worker(2, creates: 15, edits: 6, signedOut: true),
            #"{"role":"receiver","replica":1,"handled":[1,2,3]}"#, #"{"role":"receiver","replica":2,"handled":[3,4]}"#,
        ]
        let report = try FleetReport(lines: lines)
        #expect(report.duplicateDeliveries == 1)
        #expect(report.lostWrites == 2)
        #expect(report.signedOutWorkers == 1)
        #expect(report.throttled == 25)
        #expect(report.showsFailures)
        #expect(report.unmetGoals.count == 4)
    }

    @Test("the rate is judged over the workers' run, from the first start to the last end")
    func workersWindow() throws {
        let lines = [
            Self.sandbox, Self.worker(1, creates: 25, edits: 7, run: #","started_at":1000,"ended_at":1031"#),
            Self.worker(2, creates: 15, edits: 5, run: #","started_at":969,"ended_at":1030"#),
        ]
        let report = try FleetReport(lines: lines)
        #expect(report.line.contains(" limit_use=1.00 "))
    }

    @Test("a run without its sandbox line, or with a line that is not a count, is refused")
    func refused() {
        #expect(throws: FleetReportError.self) { try FleetReport(lines: [Self.worker(1, creates: 1, edits: 0)]) }
        #expect(throws: FleetReportError.self) { try FleetReport(lines: [Self.sandbox, "not json"]) }
        #expect(throws: FleetReportError.self) { try FleetReport(lines: [Self.sandbox, Self.sandbox]) }
    }
}
