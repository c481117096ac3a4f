import Foundation
import HTTPCore
import Markbook
import MarkbookSandbox
import Testing

@Suite("Importing marks against the sandbox over real HTTP")
struct ImportSandboxTests {
    /// (sid, task, new value): two changed results, one cleared-then-filled gap and one added where
    /// there was none.
    static let edits = [
        ("100234", "Algebra test", "44"), ("100251", "Geometry assignment", "15.5"),
        ("100277", "Statistics investigation", "21"), ("100315", "Homework", "9"),
        ("100322", "Term 1 exam", "0"), ("100289", "Homework", "10"),
    ]

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Export, edit, plan exactly the edits, interrupt the import, re-run it: the edited file, no extra writes")
    func exportEditImport() async throws {
        try await SandboxHarness.withClient { harness, client in
            let importer = MarkbookImporter(client: client, maximumConcurrentWrites: 2)
            let exported = DelimitedText.csv.string(
                MarkbookGrid(sheet: try await client.getMarkbook(key: 1_000_001)).table()
            )

            var rows = try DelimitedText.csv.read(exported)
            for (sid, task, value) in Self.edits {
                rows = ImportFixtures.edited(rows, sid: sid, header: task, value)
            }
            let editedFile = DelimitedText.csv.data(rows, byteOrderMark: true)
            let grid = try MarkbookGrid(table: DelimitedText.csv.read(editedFile))

            let plan = try await importer.plan(markbookKey: 1_000_001, grid: grid)
            #expect(
                plan.changes.map { "\($0.student.studentID) \($0.task.name) \($0.new)" }.sorted()
                    == Self.edits.map { "\($0.0) \($0.1) \($0.2)" }.sorted()
            )
            #expect(plan.unchanged.count == 37 - 4, "every other result, minus the four edited ones that existed")
            #expect(plan.invalid.isEmpty && plan.unknownStudents.isEmpty && plan.unknownColumns.isEmpty)

            harness.module.setOptions(.init(resultWriteFaults: .init(failAfterWrites: 3)))
            let interrupted = try await importer.apply(plan)
            #expect(interrupted.applied.count == 3)
            #expect(!interrupted.isComplete)
            #expect(interrupted.failed.allSatisfy { $0.code == "api_error" })

            harness.module.setOptions(.init())
            let rerun = try await importer.plan(markbookKey: 1_000_001, grid: grid)
            #expect(rerun.changes.count == 3)
            let report = try await importer.apply(rerun)
            #expect(report.isComplete && report.applied.count == 3)

            let again = DelimitedText.csv.string(
                MarkbookGrid(sheet: try await client.getMarkbook(key: 1_000_001)).table()
            )
            #expect(again == DelimitedText.csv.string(rows), "exporting again gives the edited file")
            let writes = harness.module.counters().resultWritesByCell
            #expect(writes.count == Self.edits.count, "only edited cells were written")
            #expect(writes.values.allSatisfy { $0 == 1 }, "each once")

            let nothing = try await importer.apply(try await importer.plan(markbookKey: 1_000_001, grid: grid))
            #expect(nothing.applied.isEmpty && nothing.isComplete)
            #expect(harness.module.counters().resultWritesByCell == writes, "a third run writes nothing")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Invalid rows refuse the whole import and nothing is written")
    func invalidRefused() async throws {
        try await SandboxHarness.withClient { harness, client in
            let importer = MarkbookImporter(client: client)
            var rows = MarkbookGrid(sheet: try await client.getMarkbook(key: 1_000_001)).table()
            rows = ImportFixtures.edited(rows, sid: "100234", header: "Algebra test", "44")
            rows = ImportFixtures.edited(rows, sid: "100251", header: "Homework", "1e1")
            let plan = try await importer.plan(markbookKey: 1_000_001, grid: MarkbookGrid(table: rows))
            let error = await expectMarkbookError(sessions: harness.sessions) { _ = try await importer.apply(plan) }
            #expect(error?.code == .validation)
            #expect(harness.module.counters().requestsByAction["putstudentresult"] == nil)
            #expect(harness.module.result(markbookKey: 1_000_001, studentKey: 5001, taskKey: 4001) == "42.5")
        }
    }
}
