import CLISupport
import CLISupportTesting
import Foundation
import Markbook
import MarkbookSandbox
import Testing

/// Issue 43's import cases, run as a user would: the built `markbook` against a sandbox the test
/// owns. Nothing is skipped silently, long lists are summarised, and lost answers are reported as
/// what they are.
@Suite("markbook import never skips silently")
struct ImportRefusalProcessTests {
    static let key = String(BulkFixture.markbookKey)

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "A header naming no task (Homework2) is exit 9 listing it, nothing written; --ignore-unknown-columns imports the rest"
    )
    func unknownColumn() async throws {
        try await BulkFixture.with { fixture in
            let (rows, edits) = try await fixture.exportAndPick(3)
            var edited = GridEdits.apply(edits, to: rows)
            let column = try #require(edited[0].firstIndex(of: "Homework"))
            edited[0][column] = "Homework2"
            for row in 2..<edited.count { edited[row][column] = "1" }
            try fixture.write(edited, to: "typo.csv")
            let letters = MarkbookGrid.columnLetters(column + 1)

            for extra in [[], ["--dry-run"]] {
                let refused = try await fixture.run(["import", Self.key, fixture.path("typo.csv")] + extra)
                #expect(refused.exitCode == 9, "\(refused.stderr)")
                #expect(refused.stdout.contains("Columns that name no task (nothing is written while any is left"))
                #expect(
                    refused.stderr.contains(
                        "1 column names no task of markbook 1000001: \"Homework2\" (column \(letters)); nothing was written."
                    )
                )
                #expect(refused.stderr.contains("--ignore-unknown-columns"))
            }
            let json = try await fixture.run(["--json", "import", Self.key, fixture.path("typo.csv")])
            #expect(json.exitCode == 9)
            #expect(try json.errorReport().code == "validation")
            #expect(fixture.module.counters().requestsByAction["putstudentresult", default: 0] == 0)

            let ignored = try await fixture.run([
                "import", Self.key, fixture.path("typo.csv"), "--ignore-unknown-columns",
            ])
            #expect(ignored.exitCode == 0, "\(ignored.stderr)")
            #expect(ignored.stdout.contains("Columns that name no task (left alone):"))
            #expect(ignored.stdout.contains("Import complete: applied "))
            let written = fixture.module.counters().resultWritesByCell.keys
            #expect(!written.isEmpty && written.allSatisfy { $0.taskKey != 4005 }, "nothing in the Homework2 column")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("10,000 rows of unknown students: a count and the first 10; --verbose lists them all")
    func unknownStudentsSummarised() async throws {
        try await BulkFixture.with { fixture in
            let rows = try await fixture.export(to: "original.csv")
            let strangers = (1...10_000).map { index in ["9\(index)", "Stranger", "Number \(index)", "", ""] }
            try fixture.write(
                rows + strangers.map { $0 + Array(repeating: "", count: rows[0].count - 5) },
                to: "many.csv"
            )

            let short = try await fixture.run(["import", Self.key, fixture.path("many.csv"), "--dry-run"])
            #expect(short.exitCode == 0, "\(short.stderr)")
            #expect(short.stdout.contains(" · 10000 unknown students"))
            #expect(short.stdout.contains("  91\n") && short.stdout.contains("  910\n"))
            #expect(!short.stdout.contains("  911\n"))
            #expect(short.stdout.contains("… and 9990 more unknown students (--verbose lists them all)."))
            #expect(short.stdout.split(separator: "\n").count < 40, "a summary, not a line per row")

            let verbose = try await fixture.run([
                "--verbose", "import", Self.key, fixture.path("many.csv"), "--dry-run",
            ])
            #expect(verbose.exitCode == 0, "\(verbose.stderr)")
            #expect(verbose.stdout.contains("  910000\n"))
            #expect(!verbose.stdout.contains("more unknown students"))

            let json = try await fixture.run(["--json", "import", Self.key, fixture.path("many.csv"), "--dry-run"])
            struct Plan: Decodable {
                struct Body: Decodable {
                    struct Row: Decodable {
                        var row: Int
                        var sid: String
                    }
                    var unknownStudents: [Row]
                }
                var plan: Body
            }
            #expect(try json.json(Plan.self).plan.unknownStudents.count == 10_000, "JSON keeps every entry")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "Writes applied but answered 502 are an unknown outcome (exit 8, re-run to check); the re-run finds them done"
    )
    func lostAnswers() async throws {
        try await BulkFixture.with { fixture in
            let (rows, edits) = try await fixture.exportAndPick(4)
            try fixture.write(GridEdits.apply(edits, to: rows), to: "edited.csv")
            fixture.module.setOptions(
                MarkbookSandboxOptions(
                    resultWriteFaults: .init(failAfterWrites: 0, failure: .lostAnswer(httpStatus: 502))
                )
            )
            let first = try await fixture.run(["--no-retry", "import", Self.key, fixture.path("edited.csv")])
            #expect(first.exitCode == 8, "\(first.stderr)")
            #expect(first.stdout.contains("Import INCOMPLETE: applied 0, failed 0, unknown outcome 4, unchanged "))
            #expect(first.stdout.contains("Unknown outcome: row "))
            #expect(first.stdout.contains("re-run to check"))
            #expect(first.stderr.contains("The import is incomplete (4 changes of 4 not confirmed)"))
            #expect(first.stderr.contains("Re-run the same import to check"))
            let writes = fixture.module.counters().resultWritesByCell
            #expect(writes.count == 4, "the sandbox applied them")

            fixture.module.setOptions(MarkbookSandboxOptions())
            let again = try await fixture.run(["import", Self.key, fixture.path("edited.csv")])
            #expect(again.exitCode == 0, "\(again.stderr)")
            #expect(
                again.stdout.hasPrefix("Plan for markbook 1000001 from \(fixture.path("edited.csv")): 0 changes · ")
            )
            #expect(again.stdout.hasSuffix("Nothing to write.\n"))
            #expect(fixture.module.counters().resultWritesByCell == writes, "nothing written twice")
        }
    }
}
