import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Markbook
import Testing

@testable import MarkbookCLI

/// `markbook export`, `import` and `backup download` in-process, for what needs no process:
/// formats, the progress bar on a terminal, argument checks.
@Suite("markbook export and import in-process")
struct BulkCommandTests {
    @Test("export to stdout: CSV with LF line ends and no byte order mark; TSV; JSON that import reads back")
    func formats() async throws {
        let csv = await markbook(["--sandbox", "export", "1000001"])
        #expect(csv.exitCode == 0, "\(csv.stderr)")
        #expect(csv.stdout.hasPrefix("sid,family name,given name,preferred name,class,"))
        #expect(!csv.stdout.contains("\r"))
        #expect(!csv.stdout.hasPrefix("\u{FEFF}"))
        #expect(csv.stdout.split(separator: "\n")[1].hasPrefix("maximum,,,,,"))

        let tsv = await markbook(["--sandbox", "export", "1000001", "--format", "tsv"])
        #expect(tsv.stdout.hasPrefix("sid\tfamily name\tgiven name\tpreferred name\tclass\t"))

        let json = await markbook(["--sandbox", "export", "1000001", "--json"])
        #expect(json.exitCode == 0, "\(json.stderr)")
        let folder = try ScratchFolder("markbook-bulk")
        defer { folder.remove() }
        let file = folder.file("grid.json")
        try Data(json.stdout.utf8).write(to: file)
        let plan = await markbook(["--sandbox", "import", "1000001", file.path, "--dry-run"])
        #expect(plan.exitCode == 0, "\(plan.stderr)")
        #expect(plan.stdout.contains(": 0 changes · "))
        #expect(plan.stdout.hasSuffix("Nothing to write.\n"))

        let jsonl = await markbook(["--sandbox", "export", "1000001", "--format", "jsonl"])
        #expect(jsonl.exitCode == 64)
    }

    @Test("On a terminal, import draws a progress bar on stderr; the report goes to stdout")
    func progressBar() async throws {
        let export = await markbook(["--sandbox", "export", "1000001"])
        let rows = try DelimitedText.csv.read(export.stdout)
        let edits = GridEdits.pick(2, in: rows)
        let folder = try ScratchFolder("markbook-bulk")
        defer { folder.remove() }
        let file = folder.file("edited.csv")
        try DelimitedText.csv.data(GridEdits.apply(edits, to: rows)).write(to: file)
        let result = await markbook(["--sandbox", "import", "1000001", file.path]) { environment in
            environment.standardErrorIsTerminal = true
        }
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Writing results [####################] 2/2"))
        #expect(result.stdout.contains("Import complete: applied 2, failed 0, unchanged "))
        #expect(!result.stdout.contains("\u{1B}"))
    }

    @Test("Bad files and options are usage errors (exit 64) before anything is written")
    func usage() async throws {
        let folder = try ScratchFolder("markbook-bulk")
        defer { folder.remove() }
        let missing = await markbook(["--sandbox", "import", "1000001", folder.path("nope.csv")])
        #expect(missing.exitCode == 64)
        #expect(missing.stderr.contains("no such file"))

        let noSID = folder.file("nosid.csv")
        try Data("name,Algebra\nAdams,4\n".utf8).write(to: noSID)
        let unreadable = await markbook(["--sandbox", "import", "1000001", noSID.path])
        #expect(unreadable.exitCode == 64)
        #expect(unreadable.stderr.contains("sid"))

        let broken = folder.file("broken.json")
        try Data("{\"students\": 3}".utf8).write(to: broken)
        let json = await markbook(["--sandbox", "import", "1000001", broken.path])
        #expect(json.exitCode == 64)
        #expect(json.stderr.contains("is not a markbook export in JSON: students has the wrong type."))

        let concurrency = await markbook(["--sandbox", "import", "1000001", noSID.path, "--concurrency", "0"])
        #expect(concurrency.exitCode == 64)
    }

    /// One student, for the tests that build a sheet or a plan by hand.
    static let student = MarkbookStudent(
        key: 5001,
        studentID: "100234",
        familyName: "Adams",
        givenName: "Olivia",
        preferredName: "",
        classKey: 3001,
        className: "10MAT1-A"
    )

    @Test("The JSON grid of tasks that share a name keys their results by task key, and reads back whole")
    func sharedTaskNamesInJSON() throws {
        let task = { (key: Int, name: String) in MarkbookTask(key: key, name: name, maximum: 10, decimalPlaces: 0) }
        let student = Self.student
        let sheet = MarkbookSheet(
            key: 1,
            name: "M",
            year: "2024",
            course: "",
            ownerKey: 1,
            shareList: [],
            classes: [],
            tasks: [task(4001, "Homework"), task(4002, "homework")],
            students: [student],
            results: [
                5001: [4001: MarkbookResult(raw: "7", rounded: "7"), 4002: MarkbookResult(raw: "9", rounded: "9")]
            ]
        )
        let document = try JSONDecoder().decode(
            GridDocument.self,
            from: JSONEncoder().encode(GridDocument(sheet: sheet))
        )
        #expect(document.tasks?.map(\.name) == ["Homework", "homework"])
        #expect(document.students.first?.results?.keys.sorted() == ["4001", "4002"])
        #expect(try sheet.importPlan(MarkbookGrid(table: document.table())).unchanged.count == 2)
    }

    @Test("An incomplete import's exit code follows the help's order: ambiguous, then conflict, then the failure")
    func incompleteImportOrder() throws {
        let student = Self.student
        let changes = (4001...4003).map { key in
            MarkbookImportPlan.Change(
                student: student,
                task: MarkbookTask(key: key, name: "T\(key)", maximum: 10, decimalPlaces: 0),
                old: nil,
                new: "5",
                rowNumber: 3
            )
        }
        let plan = MarkbookImportPlan(markbookKey: 1, changes: changes)
        let refused = APIError.validation(APIError.Details(message: "refused"))
        var report = MarkbookImportReport(markbookKey: 1)
        report.failed = [.init(change: changes[0], error: refused)]
        report.unknownOutcome = [
            .init(change: changes[1], error: APIError.ambiguous(APIError.Details(message: "lost")))
        ]
        report.conflicts = [.init(change: changes[2], reason: .studentGone)]
        let code = { (report: MarkbookImportReport) -> String? in
            do {
                try ImportReportView(report: report, plan: plan).checkComplete()
                return nil
            } catch let error as APIError {
                return error.code.rawValue
            } catch let error as CommandFailure {
                return error.code
            } catch {
                return "\(error)"
            }
        }
        #expect(code(report) == "ambiguous")
        report.unknownOutcome = []
        #expect(code(report) == "import_conflict")
        report.conflicts = []
        #expect(code(report) == "validation")
    }

    @Test("Column letters as a spreadsheet shows them")
    func columnLetters() {
        #expect(MarkbookGrid.columnLetters(1) == "A")
        #expect(MarkbookGrid.columnLetters(26) == "Z")
        #expect(MarkbookGrid.columnLetters(27) == "AA")
        #expect(MarkbookGrid.columnLetters(703) == "AAA")
    }

    @Test("Backup sizes in decimal units")
    func backupSizes() throws {
        #expect(BackupDownloadCommand.size(812) == "812 bytes")
        #expect(BackupDownloadCommand.size(14_200) == "14.2 kB")
        #expect(BackupDownloadCommand.size(3_100_000) == "3.1 MB")
    }
}
