import Foundation
import HTTPCore
import HTTPCoreTesting
import Markbook
import MarkbookSandbox
import Testing

/// The sandbox's logic behind a scripted transport on a test clock: no sockets, no waiting.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ScriptedImport {
    let clock: TestClock
    let module: MarkbookSandboxModule
    let transport: ScriptedTransport
    let client: MarkbookClient

    init(gate: WriteGate? = nil) throws {
        let clock = TestClock()
        self.clock = clock
        let module = MarkbookSandboxModule(account: TestAccount.account, now: { clock.now() })
        let handler = sandboxHandler(module)
        transport = ScriptedTransport(clock: clock) { recorded in
            guard let gate, recorded.action == "putstudentresult" else { return try await handler(recorded) }
            await gate.enter()
            defer { gate.leave() }
            return try await handler(recorded)
        }
        self.module = module
        client = try scriptedClient(transport, clock: clock)
    }

    /// The seed's first markbook and its grid with every Homework result (task 4005) set to
    /// `homework` and every Term 1 exam (4004) raised by one: 15 changes (Ari has no homework
    /// result, so his is added).
    func editedGrid() async throws -> (sheet: MarkbookSheet, rows: [[String]]) {
        let sheet = try await client.getMarkbook(key: 1_000_001)
        var rows = MarkbookGrid(sheet: sheet).table()
        let homework = try #require(rows[0].firstIndex(of: "Homework"))
        let exam = try #require(rows[0].firstIndex(of: "Term 1 exam"))
        for index in rows.indices.dropFirst(2) {
            rows[index][homework] = "10"
            rows[index][exam] = String((Int(rows[index][exam]) ?? 0) + 1)
        }
        return (sheet, rows)
    }

    /// The plan that imports ``editedGrid()`` into the seed's first markbook, and the grid's rows.
    func editedPlan() async throws -> (plan: MarkbookImportPlan, rows: [[String]]) {
        let (sheet, rows) = try await editedGrid()
        return (try sheet.importPlan(MarkbookGrid(table: rows)), rows)
    }

    var writes: [MarkbookSandboxModule.ResultCell: Int] { module.counters().resultWritesByCell }

    /// Makes the sandbox answer every write to `change`'s cell with `failure`.
    func failWrites(
        to change: MarkbookImportPlan.Change,
        with failure: MarkbookSandboxOptions.ResultWriteFaults.Failure
    ) {
        let cell = MarkbookSandboxModule.ResultCell(studentKey: change.student.key, taskKey: change.task.key)
        module.setOptions(.init(resultWriteFaults: .init(cells: [cell], failure: failure)))
    }
}

/// Holds each write until `limit` are in flight together (or long enough that they never will
/// be), recording the most seen at once.
final class WriteGate: Sendable {
    private struct State {
        var inFlight = 0
        var maximum = 0
        var opened = false
    }

    let limit: Int
    private let state = Locked(State())

    init(limit: Int) {
        self.limit = limit
    }

    var maximum: Int { state.withLock { $0.maximum } }

    func enter() async {
        state.withLock {
            $0.inFlight += 1
            $0.maximum = max($0.maximum, $0.inFlight)
            if $0.inFlight >= limit { $0.opened = true }
        }
        var spins = 0
        while !state.withLock({ $0.opened }), spins < 20_000 {
            await Task.yield()
            spins += 1
        }
    }

    func leave() {
        state.withLock { $0.inFlight -= 1 }
    }
}

extension ScriptedTransport.RecordedRequest {
    var action: String? { queryItems.first { $0.name == "action" }?.value }

    /// The result cell a `putstudentresult` names.
    var resultCell: MarkbookSandboxModule.ResultCell? {
        let keys = ["studentkey", "taskkey"].map { name in queryItems.first { $0.name == name }?.value.flatMap(Int.init)
        }
        guard let student = keys[0], let task = keys[1] else { return nil }
        return MarkbookSandboxModule.ResultCell(studentKey: student, taskKey: task)
    }
}

/// Collects progress reports.
final class ProgressLog: Sendable {
    private let events = Locked<[MarkbookImportProgress]>([])
    var all: [MarkbookImportProgress] { events.withLock { $0 } }
    func record(_ progress: MarkbookImportProgress) { events.withLock { $0.append(progress) } }
}

@Suite("Applying an import plan on the scripted transport")
struct ImporterTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Writes run at most maximumConcurrentWrites at a time, and use that many", arguments: [1, 2, 5])
    func boundedConcurrency(limit: Int) async throws {
        let gate = WriteGate(limit: limit)
        let harness = try ScriptedImport(gate: gate)
        let (plan, _) = try await harness.editedPlan()
        #expect(plan.changes.count == 15)
        let report = try await MarkbookImporter(client: harness.client, maximumConcurrentWrites: limit).apply(plan)
        #expect(gate.maximum == limit)
        #expect(report.applied.map(\.id) == plan.changes.map(\.id), "in plan order")
        #expect(report.isComplete)
        #expect(harness.writes.count == 15 && harness.writes.values.allSatisfy { $0 == 1 })
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A failure mid-way stops new writes; the report never calls it applied; a re-run finishes the job")
    func failureMidWay() async throws {
        let harness = try ScriptedImport()
        let (sheet, rows) = try await harness.editedGrid()
        let grid = try MarkbookGrid(table: rows)
        let importer = MarkbookImporter(client: harness.client, maximumConcurrentWrites: 1)
        harness.module.setOptions(.init(resultWriteFaults: .init(failAfterWrites: 4)))
        let progress = ProgressLog()
        let plan = try sheet.importPlan(grid)
        let first = try await importer.apply(plan) { progress.record($0) }
        #expect(first.applied.count == 4)
        #expect(first.failed.map(\.code) == ["api_error"])
        #expect(first.failed.map(\.change.id) == [plan.changes[4].id])
        #expect(first.notAttempted.count == 10)
        #expect(!first.isComplete)
        #expect(progress.all.map(\.completed) == [0, 1, 2, 3, 4, 5])
        #expect(progress.all.allSatisfy { $0.total == 15 })
        if case .failed(let change, _) = progress.all.last?.event {
            #expect(change.id == plan.changes[4].id)
        } else {
            Issue.record("the last progress event is not the failure")
        }
        for change in first.applied {
            #expect(
                harness.module.result(markbookKey: 1_000_001, studentKey: change.student.key, taskKey: change.task.key)
                    == change.new
            )
        }
        let failed = plan.changes[4]
        #expect(
            harness.module.result(markbookKey: 1_000_001, studentKey: failed.student.key, taskKey: failed.task.key)
                .map(MarkbookResultRules.display) == failed.old.map { MarkbookResultRules.display($0.raw) }
        )

        harness.module.setOptions(.init())
        let second = try await importer.plan(markbookKey: 1_000_001, grid: grid)
        #expect(second.changes.count == 11, "only what is still different")
        #expect(Set(second.changes.map(\.id)).isDisjoint(with: first.applied.map(\.id)))
        let report = try await importer.apply(second)
        #expect(report.isComplete && report.applied.count == 11)
        let final = try await harness.client.getMarkbook(key: 1_000_001)
        #expect(MarkbookGrid(sheet: final).table() == rows)
        #expect(harness.writes.count == 15)
        #expect(harness.writes.values.allSatisfy { $0 == 1 }, "no cell written twice, no unchanged cell written")
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("With writes in flight when one fails, every applied change is in the markbook and no failed one is")
    func failureWhileConcurrent() async throws {
        let harness = try ScriptedImport()
        let (plan, _) = try await harness.editedPlan()
        harness.module.setOptions(.init(resultWriteFaults: .init(failAfterWrites: 5)))
        let report = try await MarkbookImporter(client: harness.client, maximumConcurrentWrites: 4).apply(plan)
        #expect(report.applied.count == 5)
        #expect(!report.failed.isEmpty && report.failed.count <= 4)
        #expect(report.applied.count + report.failed.count + report.notAttempted.count == 15)
        for change in plan.changes {
            let stored = harness.module.result(
                markbookKey: 1_000_001,
                studentKey: change.student.key,
                taskKey: change.task.key
            )
            let isApplied = report.applied.contains { $0.id == change.id }
            #expect((stored == change.new) == isApplied, "\(change.id)")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A write applied but answered with a 502 has an unknown outcome, and the re-run sees it already done")
    func lostAnswer() async throws {
        let harness = try ScriptedImport()
        let (plan, rows) = try await harness.editedPlan()
        let lost = plan.changes[2]
        let cell = MarkbookSandboxModule.ResultCell(studentKey: lost.student.key, taskKey: lost.task.key)
        harness.module.setOptions(.init(resultWriteFaults: .init(cells: [cell], failure: .lostAnswer(httpStatus: 502))))
        let importer = MarkbookImporter(client: harness.client, maximumConcurrentWrites: 3)
        let first = try await importer.apply(plan)
        #expect(first.unknownOutcome.map(\.change.id) == [lost.id])
        #expect(first.unknownOutcome.first?.code == "api_error")
        #expect(first.failed.isEmpty)
        #expect(!first.isComplete)
        #expect(!first.applied.contains { $0.id == lost.id })
        #expect(first.applied.count + first.notAttempted.count == 14, "an HTTP 502 stops new writes")
        let writesToLost = harness.writes[cell] ?? 0
        #expect(writesToLost >= 1, "the sandbox applied it")

        harness.module.setOptions(.init())
        let again = try await importer.plan(markbookKey: 1_000_001, grid: MarkbookGrid(table: rows))
        #expect(!again.changes.contains { $0.id == lost.id })
        _ = try await importer.apply(again)
        #expect(harness.writes[cell] == writesToLost, "not written again")
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A write applied on a timed-out attempt, whose retries then never connect, has an unknown outcome")
    func appliedThenUnreachable() async throws {
        let clock = TestClock()
        let module = MarkbookSandboxModule(account: TestAccount.account, now: { clock.now() })
        let handler = sandboxHandler(module)
        let target = Locked<MarkbookSandboxModule.ResultCell?>(nil)
        let transport = ScriptedTransport(clock: clock) { recorded in
            guard recorded.action == "putstudentresult", let cell = recorded.resultCell, cell == target.withLock({ $0 })
            else { return try await handler(recorded) }
            // The first attempt lands and its answer is lost; the retries cannot connect.
            guard module.counters().resultWritesByCell[cell] != nil else {
                _ = try await handler(recorded)
                throw TransportError(.timedOut, requestMayHaveBeenSent: true, message: "Timed out.")
            }
            throw TransportError(.cannotConnect, requestMayHaveBeenSent: false, message: "Connection refused.")
        }
        let client = try scriptedClient(transport, clock: clock)
        let sheet = try await client.getMarkbook(key: 1_000_001)
        var rows = MarkbookGrid(sheet: sheet).table()
        let homework = try #require(rows[0].firstIndex(of: "Homework"))
        rows[2][homework] = "10"
        let plan = try sheet.importPlan(MarkbookGrid(table: rows))
        let change = try #require(plan.changes.first)
        target.withLock {
            $0 = MarkbookSandboxModule.ResultCell(studentKey: change.student.key, taskKey: change.task.key)
        }

        let report = try await MarkbookImporter(client: client).apply(plan)
        #expect(report.unknownOutcome.map(\.change.id) == [change.id], "it may have landed: it did")
        #expect(report.failed.isEmpty)
        #expect(report.unknownOutcome.first?.code == "network")
        let attempts = transport.requests.filter { $0.action == "putstudentresult" }.count
        #expect(attempts == 3, "one attempt that landed, two that never connected")
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A failure about one cell (not_found) lets the other writes go on")
    func oneCellFailure() async throws {
        let harness = try ScriptedImport()
        let (plan, _) = try await harness.editedPlan()
        let refused = plan.changes[0]
        harness.failWrites(to: refused, with: .status("invalid student"))
        let report = try await MarkbookImporter(client: harness.client, maximumConcurrentWrites: 1).apply(plan)
        #expect(report.failed.map(\.code) == ["not_found"])
        #expect(report.applied.count == 14 && report.notAttempted.isEmpty)
        #expect(!report.isComplete)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "An HTTP 404 or 422 is the server's, not the API's word on one cell: no new writes start",
        arguments: [404, 422]
    )
    func httpErrorStops(status: Int) async throws {
        let harness = try ScriptedImport()
        let (plan, _) = try await harness.editedPlan()
        let first = plan.changes[0]
        harness.failWrites(to: first, with: .httpStatus(status))
        let report = try await MarkbookImporter(client: harness.client, maximumConcurrentWrites: 1).apply(plan)
        #expect(report.failed.map(\.change.id) == [first.id])
        #expect(report.applied.isEmpty)
        #expect(report.notAttempted.count == 14)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Results changed since the plan are left alone (conflict) or not rewritten (already applied)")
    func changedSincePlan() async throws {
        let harness = try ScriptedImport()
        let (plan, _) = try await harness.editedPlan()
        let (other, same) = (plan.changes[0], plan.changes[1])
        try await harness.client.putStudentResult(
            markbookKey: 1_000_001,
            student: other.student,
            task: other.task,
            result: "3"
        )
        try await harness.client.putStudentResult(
            markbookKey: 1_000_001,
            student: same.student,
            task: same.task,
            result: same.new
        )
        let report = try await MarkbookImporter(client: harness.client).apply(plan)
        #expect(report.conflicts.map(\.change.id) == [other.id])
        #expect(
            report.conflicts.first?.reason == .changedSincePlan(current: MarkbookResult(raw: "3.000000", rounded: "3"))
        )
        #expect(report.alreadyApplied.map(\.id) == [same.id])
        #expect(report.applied.count == 13)
        #expect(!report.isComplete)
        #expect(harness.writes[.init(studentKey: other.student.key, taskKey: other.task.key)] == 1)
        #expect(harness.writes[.init(studentKey: same.student.key, taskKey: same.task.key)] == 1)
        #expect(
            harness.module.result(markbookKey: 1_000_001, studentKey: other.student.key, taskKey: other.task.key) == "3"
        )
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Invalid values: nothing is written (validation, exit 9) unless skipped")
    func invalidValues() async throws {
        let harness = try ScriptedImport()
        let (sheet, edited) = try await harness.editedGrid()
        var rows = edited
        rows[2][5] = "55"  // Olivia's algebra, maximum 50
        let plan = try sheet.importPlan(MarkbookGrid(table: rows))
        #expect(plan.invalid.count == 1)
        let before = harness.transport.requests.count
        let refused = await expectMarkbookError { _ = try await MarkbookImporter(client: harness.client).apply(plan) }
        #expect(refused?.code == .validation)
        #expect(refused?.exitCode == 9)
        #expect(harness.transport.requests.count == before, "not even a read")
        let report = try await MarkbookImporter(client: harness.client).apply(plan, skippingInvalid: true)
        #expect(report.skippedInvalid == 1 && report.applied.count == 15 && report.isComplete)
        #expect(harness.module.result(markbookKey: 1_000_001, studentKey: 5001, taskKey: 4001) == "42.5")
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A plan with two values for one cell, or a concurrency below 1, is refused before anything is sent")
    func refusedPlans() async throws {
        let harness = try ScriptedImport()
        let (sheet, rows) = try await harness.editedGrid()
        var plan = try sheet.importPlan(MarkbookGrid(table: rows))
        var twice = plan.changes[0]
        twice.new = "1"
        plan.changes.append(twice)
        let before = harness.transport.requests.count
        let conflicting = await expectMarkbookError {
            _ = try await MarkbookImporter(client: harness.client).apply(plan)
        }
        #expect(conflicting?.code == .usage)
        let zero = await expectMarkbookError {
            _ = try await MarkbookImporter(client: harness.client, maximumConcurrentWrites: 0).apply(plan)
        }
        #expect(zero?.code == .usage)
        #expect(harness.transport.requests.count == before)
    }
}
