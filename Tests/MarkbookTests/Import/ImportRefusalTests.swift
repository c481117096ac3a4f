import Foundation
import HTTPCore
import HTTPCoreTesting
import Markbook
import MarkbookSandbox
import Testing

/// What an import refuses to skip silently: columns that name no task, and writes whose answer
/// was lost.
@Suite("Imports that never skip silently")
struct ImportRefusalTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A header that names no task stops the import (validation, nothing sent) unless those columns are ignored")
    func unknownColumns() async throws {
        let harness = try ScriptedImport()
        let (sheet, edited) = try await harness.editedGrid()
        var rows = edited
        let homework = try #require(rows[0].firstIndex(of: "Homework"))
        rows[0][homework] = "Homework2"
        let plan = try sheet.importPlan(MarkbookGrid(table: rows))
        #expect(plan.unknownColumns.map(\.header) == ["Homework2"])
        let before = harness.transport.requests.count
        let refused = await expectMarkbookError(.validation) {
            _ = try await MarkbookImporter(client: harness.client).apply(plan)
        }
        let letters = MarkbookGrid.columnLetters(homework + 1)
        #expect(
            refused?.message
                == "1 column names no task of markbook 1000001: \"Homework2\" (column \(letters)); nothing was written."
        )
        #expect(harness.transport.requests.count == before, "not even a read")

        let report = try await MarkbookImporter(client: harness.client).apply(plan, ignoringUnknownColumns: true)
        #expect(report.isComplete && report.applied.count == 8, "the exam column only")
        #expect(harness.writes.keys.allSatisfy { $0.taskKey == 4004 })
    }

    @Test("Shared task names and several unknown columns are all named in the refusal")
    func refusalNamesEveryColumn() {
        let plan = MarkbookImportPlan(
            markbookKey: 7,
            changes: [],
            unknownColumns: [
                .init(columnNumber: 6, header: "Quiz", ambiguousTaskKeys: [4001, 4005]),
                .init(columnNumber: 28, header: ""),
            ]
        )
        let error = plan.unknownColumnsError()
        #expect(error.code == .validation && error.exitCode == 9)
        #expect(
            error.message
                == "2 columns name no task of markbook 7: \"Quiz\" (column F; tasks 4001, 4005 share that name), "
                + "\"\" (column AB); nothing was written."
        )
    }

    @Test(
        "Which failed writes have an unknown outcome",
        arguments: [
            (APIError.apiError(.init(message: "502", httpStatus: 502)), true),
            (APIError.apiError(.init(message: "gateway timeout", httpStatus: 504)), true),
            (APIError.apiError(.init(message: "not JSON", httpStatus: 200)), true),
            (APIError.ambiguous(.init(message: "lost")), true),
            (
                APIError.network(
                    .init(
                        message: "reset",
                        cause: TransportError(.connectionLost, requestMayHaveBeenSent: true, message: "reset")
                    )
                ), true
            ),
            (
                APIError.network(
                    .init(
                        message: "refused",
                        cause: TransportError(.cannotConnect, requestMayHaveBeenSent: false, message: "refused")
                    )
                ), false
            ),
            (APIError.apiError(.init(message: "busy", httpStatus: 200, rawStatus: "ERROR:busy")), false),
            (APIError.validation(.init(message: "400", httpStatus: 400)), false),
            (APIError.rateLimit(.init(message: "429", httpStatus: 429)), false),
            (
                APIError.notFound(.init(message: "no student", httpStatus: 200, rawStatus: "ERROR:invalid student")),
                false
            ),
        ]
    )
    func unknownOutcome(error: APIError, unknown: Bool) {
        #expect(MarkbookImportReport.outcomeIsUnknown(error) == unknown, "\(error)")
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Writes applied but answered 502: unknown outcome, not failed; the re-run plans them as unchanged")
    func lostAnswers() async throws {
        let harness = try ScriptedImport()
        let (sheet, edited) = try await harness.editedGrid()
        let plan = try sheet.importPlan(MarkbookGrid(table: Array(edited.prefix(4))))
        #expect(plan.changes.count >= 3)
        harness.module.setOptions(
            .init(resultWriteFaults: .init(failAfterWrites: 0, failure: .lostAnswer(httpStatus: 502)))
        )
        let importer = MarkbookImporter(client: harness.client, maximumConcurrentWrites: 4)
        let report = try await importer.apply(plan)
        #expect(report.applied.isEmpty && report.failed.isEmpty)
        #expect(report.unknownOutcome.map(\.change.id) == plan.changes.map(\.id))
        #expect(!report.isComplete)

        harness.module.setOptions(.init())
        let again = try await importer.plan(markbookKey: 1_000_001, grid: MarkbookGrid(table: Array(edited.prefix(4))))
        #expect(again.changes.isEmpty)
        #expect(again.unchanged.count == plan.changes.count + plan.unchanged.count)
    }
}
