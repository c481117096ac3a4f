import CLISupport
import CLISupportTesting
import Foundation
import Markbook
import MarkbookSandbox
import Testing

/// Issue 35's spreadsheet round trip, run as a user would: the built `markbook` exports a
/// markbook, the file is edited, and the tool imports it back into a sandbox the test owns.
@Suite("markbook export and import as processes")
struct ImportWorkflowTests {
    static let key = String(BulkFixture.markbookKey)

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("export → edit → import --dry-run shows exactly the edits → import → export equals the edited file")
    func roundTrip() async throws {
        try await BulkFixture.with { fixture in
            let (rows, edits) = try await fixture.exportAndPick(3)
            let raw = try fixture.bytes("original.csv")
            #expect(raw.starts(with: [0xEF, 0xBB, 0xBF]), "a UTF-8 byte order mark for spreadsheets")
            #expect(String(decoding: raw, as: UTF8.self).contains("\r\n"))
            #expect(Array(rows[0].prefix(5)) == MarkbookGrid.identityHeaders)
            #expect(rows[1][0] == "maximum")

            try fixture.write(GridEdits.apply(edits, to: rows), to: "edited.csv")

            let dryRun = try await fixture.run(["--json", "import", Self.key, fixture.path("edited.csv"), "--dry-run"])
            #expect(dryRun.exitCode == 0, "\(dryRun.stderr)")
            let planned = try dryRun.json(ImportOutput.self)
            #expect(planned.dryRun)
            #expect(planned.report == nil)
            let expected = edits.map { edit in
                [
                    String(edit.row + 1), rows[edit.row][0], rows[0][edit.column], rows[edit.row][edit.column],
                    edit.value,
                ]
            }
            let shown = planned.plan.changes.map { [String($0.row), $0.sid, $0.task, $0.old ?? "", $0.new] }
            #expect(shown == expected)
            #expect(planned.plan.invalid.isEmpty)
            #expect(fixture.module.counters().resultWritesByCell.isEmpty, "a dry run writes nothing")

            let human = try await fixture.run(["import", Self.key, fixture.path("edited.csv"), "--dry-run"])
            #expect(human.exitCode == 0)
            #expect(human.stdout.contains("3 changes · "))
            #expect(human.stdout.contains("Changes (old -> new):"))
            #expect(human.stdout.hasSuffix("Dry run: nothing was written.\n"))

            let applied = try await fixture.run(["import", Self.key, fixture.path("edited.csv")])
            #expect(applied.exitCode == 0, "\(applied.stderr)")
            #expect(applied.stdout.contains("Import complete: applied 3, failed 0, unchanged "))
            #expect(!applied.stderr.contains("\r"), "no progress bar when stderr is not a terminal")
            let writes = fixture.module.counters().resultWritesByCell
            #expect(writes.count == 3 && writes.values.allSatisfy { $0 == 1 })

            _ = try await fixture.export(to: "again.csv")
            #expect(try fixture.bytes("again.csv") == fixture.bytes("edited.csv"))

            let rerun = try await fixture.run(["import", Self.key, fixture.path("edited.csv")])
            #expect(rerun.exitCode == 0)
            #expect(rerun.stdout.contains("Nothing to write."))
            #expect(fixture.module.counters().resultWritesByCell == writes, "nothing written twice")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Invalid values: the plan lists them, exit 9, and nothing is written; --skip-invalid writes the rest")
    func invalidValues() async throws {
        try await BulkFixture.with { fixture in
            let (rows, picked) = try await fixture.exportAndPick(3)
            var edits = picked
            edits[1].value = "abc"
            edits[2].value = "100000"
            try fixture.write(GridEdits.apply(edits, to: rows), to: "bad.csv")

            let refused = try await fixture.run(["import", Self.key, fixture.path("bad.csv")])
            #expect(refused.exitCode == 9)
            #expect(refused.stdout.contains("Invalid values"))
            #expect(refused.stdout.contains("abc"))
            #expect(refused.stderr.contains("2 values are invalid; nothing was written."))
            #expect(refused.stderr.contains("--skip-invalid"))
            #expect(fixture.module.counters().resultWritesByCell.isEmpty)
            #expect(fixture.module.counters().requestsByAction["putstudentresult", default: 0] == 0)

            let dryRun = try await fixture.run(["--json", "import", Self.key, fixture.path("bad.csv"), "--dry-run"])
            #expect(dryRun.exitCode == 9)
            let plan = try dryRun.json(ImportOutput.self).plan
            #expect(Set(plan.invalid.map(\.code)) == ["not_a_number", "out_of_range"])
            #expect(try dryRun.errorReport().code == "validation")

            let skipped = try await fixture.run([
                "--json", "import", Self.key, fixture.path("bad.csv"), "--skip-invalid",
            ])
            #expect(skipped.exitCode == 0, "\(skipped.stderr)")
            let report = try #require(try skipped.json(ImportOutput.self).report)
            #expect(report.complete && report.applied == 1 && report.skippedInvalid == 2)
            #expect(fixture.module.counters().resultWritesByCell.count == 1)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("An import interrupted mid-way, run again, ends in the intended state with no extra writes")
    func interruptedThenRerun() async throws {
        try await BulkFixture.with { fixture in
            let (rows, edits) = try await fixture.exportAndPick(6)
            let edited = GridEdits.apply(edits, to: rows)
            try fixture.write(edited, to: "edited.csv")

            // Every write after the first two fails, as a server going down mid-import.
            fixture.module.setOptions(
                MarkbookSandboxOptions(resultWriteFaults: .init(failAfterWrites: 2))
            )
            let first = try await fixture.run(["import", Self.key, fixture.path("edited.csv"), "--concurrency", "1"])
            #expect(first.exitCode == 7, "\(first.stderr)")
            #expect(first.stdout.contains("Import INCOMPLETE: applied 2, failed 1, "))
            #expect(first.stdout.contains("not attempted 3"))
            #expect(!first.stdout.contains("Import complete"))
            #expect(first.stderr.contains("The import is incomplete (4 changes of 6 not written)"))
            #expect(first.stderr.contains("Run the same import again"))
            #expect(fixture.module.counters().resultWritesByCell.count == 2)

            fixture.module.setOptions(MarkbookSandboxOptions())
            let second = try await fixture.run(["--json", "import", Self.key, fixture.path("edited.csv")])
            #expect(second.exitCode == 0, "\(second.stderr)")
            let output = try second.json(ImportOutput.self)
            #expect(output.plan.changes.count == 4, "only what is still different is planned")
            #expect(output.report?.applied == 4)
            #expect(output.report?.complete == true)

            let writes = fixture.module.counters().resultWritesByCell
            #expect(writes.count == 6, "exactly the edited cells were written")
            #expect(writes.values.allSatisfy { $0 == 1 }, "no cell written twice: \(writes)")
            _ = try await fixture.export(to: "after.csv")
            #expect(try fixture.bytes("after.csv") == fixture.bytes("edited.csv"))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "A write whose answer is lost is reported failed, never applied; the re-run finds it written and sends nothing"
    )
    func lostAnswer() async throws {
        try await BulkFixture.with { fixture in
            let (rows, edits) = try await fixture.exportAndPick(3)
            try fixture.write(GridEdits.apply(edits, to: rows), to: "edited.csv")
            let planned = try await fixture.run(["--json", "import", Self.key, fixture.path("edited.csv"), "--dry-run"])
            let lost = try #require(try planned.json(ImportOutput.self).plan.changes.dropFirst().first)
            let cell = MarkbookSandboxModule.ResultCell(studentKey: lost.studentKey, taskKey: lost.taskKey)

            // The second cell is written, then its answer is lost (a 400, which is not retried).
            fixture.module.setOptions(
                MarkbookSandboxOptions(resultWriteFaults: .init(cells: [cell], failure: .lostAnswer(httpStatus: 400)))
            )
            let first = try await fixture.run(["import", Self.key, fixture.path("edited.csv")])
            #expect(first.exitCode == 9, "\(first.stderr)")
            #expect(first.stdout.contains("Import INCOMPLETE: applied 2, failed 1, "))
            #expect(first.stdout.contains("Failed: row \(lost.row) \(lost.sid) "))
            #expect(fixture.module.counters().resultWritesByCell[cell] == 1, "it did reach the markbook")

            fixture.module.setOptions(MarkbookSandboxOptions())
            let second = try await fixture.run(["import", Self.key, fixture.path("edited.csv")])
            #expect(second.exitCode == 0, "\(second.stderr)")
            #expect(second.stdout.contains("Nothing to write."))
            let writes = fixture.module.counters().resultWritesByCell
            #expect(writes.count == 3 && writes.values.allSatisfy { $0 == 1 }, "\(writes)")
        }
    }

    @Test("markbook --sandbox takes its faults from the environment, with a state file between runs")
    func sandboxFaultsFromEnvironment() async throws {
        let folder = try ScratchFolder("markbook-faults")
        defer { folder.remove() }
        let state = ["MARKBOOK_SANDBOX_STATE": folder.path("school.json")]
        let original = folder.file("original.csv")
        let exported = try await runBuiltMarkbook(
            ["--sandbox", "export", Self.key, "--output", original.path],
            variables: state
        )
        #expect(exported.exitCode == 0, "\(exported.stderr)")
        let rows = try DelimitedText.csv.read(Data(contentsOf: original))
        let edited = GridEdits.apply(GridEdits.pick(4, in: rows), to: rows)
        let file = folder.file("edited.csv")
        try DelimitedText.csv.data(edited, byteOrderMark: true).write(to: file)

        var faulty = state
        faulty["MARKBOOK_SANDBOX_FAIL_RESULTS_AFTER"] = "1"
        faulty["MARKBOOK_SANDBOX_FAIL_RESULTS_WITH"] = "error:invalid value"
        let first = try await runBuiltMarkbook(
            ["--sandbox", "import", Self.key, file.path, "--concurrency", "1"],
            variables: faulty
        )
        #expect(first.exitCode == 9, "a per-cell refusal: \(first.stderr)")
        #expect(first.stdout.contains("Import INCOMPLETE: applied 1, failed 3"))

        let second = try await runBuiltMarkbook(["--sandbox", "import", Self.key, file.path], variables: state)
        #expect(second.exitCode == 0, "\(second.stderr)")
        #expect(second.stdout.contains("Import complete: applied 3, failed 0"))

        let again = folder.file("again.csv")
        let reexported = try await runBuiltMarkbook(
            ["--sandbox", "export", Self.key, "--output", again.path],
            variables: state
        )
        #expect(reexported.exitCode == 0)
        #expect(try Data(contentsOf: again) == Data(contentsOf: file))

        let typo = try await runBuiltMarkbook(
            ["--sandbox", "list"],
            variables: ["MARKBOOK_SANDBOX_FAIL_RESULTS_AFTER": "soon"]
        )
        #expect(typo.exitCode == 1)
        #expect(typo.stderr.contains("MARKBOOK_SANDBOX_FAIL_RESULTS_AFTER='soon' is not understood"))
        #expect(typo.stderr.contains("Unset MARKBOOK_SANDBOX_FAIL_RESULTS_AFTER"))
    }
}
