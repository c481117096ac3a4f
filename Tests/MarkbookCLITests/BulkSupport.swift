import APISandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCoreTesting
import Markbook
import MarkbookSandbox
import Testing

/// A scratch directory, a sandbox the test owns (so its counters and state outlive each
/// process) and runs of the built `markbook` against it, for the export/import workflow tests.
@available(macOS 14, iOS 17, tvOS 17, *)
struct BulkFixture {
    let folder: ScratchFolder
    let baseURL: String
    let module: MarkbookSandboxModule

    static let markbookKey = 1_000_001

    /// Runs `body` with a fresh fixture and cleans up after it.
    static func with(_ body: (BulkFixture) async throws -> Void) async throws {
        let folder = try ScratchFolder("markbook-bulk")
        defer { folder.remove() }
        try await withSandbox { baseURL, module, _ in
            try await body(BulkFixture(folder: folder, baseURL: baseURL, module: module))
        }
    }

    /// Runs the built `markbook` against the sandbox with the test account, and checks its output
    /// for secrets.
    func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> CommandResult {
        let result = try await runBuiltMarkbook(["--base-url", baseURL] + arguments, variables: CLIAccount.variables)
        expectNoSecrets(result, sourceLocation: sourceLocation)
        return result
    }

    /// A path in the scratch directory.
    func path(_ name: String) -> String { folder.path(name) }

    /// Exports the markbook to `name` and returns its rows.
    func export(to name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [[String]] {
        let result = try await run(
            ["export", String(Self.markbookKey), "--output", path(name)],
            sourceLocation: sourceLocation
        )
        #expect(result.exitCode == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        return try DelimitedText.csv.read(Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// Exports the markbook to `original.csv` and picks `count` edits of it (see ``GridEdits/pick(_:in:)``),
    /// requiring that many.
    func exportAndPick(
        _ count: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (rows: [[String]], edits: [GridEdit]) {
        let rows = try await export(to: "original.csv", sourceLocation: sourceLocation)
        let edits = GridEdits.pick(count, in: rows)
        try #require(edits.count == count, sourceLocation: sourceLocation)
        return (rows, edits)
    }

    /// Writes rows as the tool writes a CSV file.
    func write(_ rows: [[String]], to name: String) throws {
        try DelimitedText.csv.data(rows, byteOrderMark: true).write(to: URL(fileURLWithPath: path(name)))
    }

    /// The bytes of a file in the scratch directory.
    func bytes(_ name: String) throws -> Data {
        try Data(contentsOf: folder.file(name))
    }

    /// The names in the scratch directory, hidden ones included.
    func listing() throws -> [String] {
        try folder.names()
    }
}

/// One intended change to an exported grid: the cell at `row`, `column` gets `value`.
struct GridEdit: Hashable {
    var row: Int
    var column: Int
    var value: String
}

/// Edits of an exported grid, chosen from what it holds so each one really changes a result.
enum GridEdits {
    /// The first `count` cells (student rows, task columns, row by row) changed to a valid value
    /// different from the current one: half of the task's maximum, or one less.
    static func pick(_ count: Int, in rows: [[String]]) -> [GridEdit] {
        let identity = MarkbookGrid.identityHeaders.count
        let maxima = rows[1]
        var edits: [GridEdit] = []
        for row in 2..<rows.count {
            for column in identity..<rows[row].count where edits.count < count {
                let maximum = Int(maxima[column]) ?? 10
                let half = String(maximum / 2)
                let value = rows[row][column] == half ? String(maximum / 2 - 1) : half
                edits.append(GridEdit(row: row, column: column, value: value))
            }
        }
        return edits
    }

    /// The rows with the edits applied.
    static func apply(_ edits: [GridEdit], to rows: [[String]]) -> [[String]] {
        var edited = rows
        for edit in edits { edited[edit.row][edit.column] = edit.value }
        return edited
    }
}

/// The parts of `markbook import --json` the tests read.
struct ImportOutput: Decodable {
    struct Plan: Decodable {
        struct Change: Decodable, Hashable {
            var row: Int
            var sid: String
            var task: String
            var taskKey: Int
            var studentKey: Int
            var old: String?
            var new: String
        }

        struct Invalid: Decodable {
            var row: Int
            var code: String
            var value: String
        }

        var changes: [Change]
        var unchanged: Int
        var invalid: [Invalid]
    }

    struct Report: Decodable {
        var complete: Bool
        var applied: Int
        var unchanged: Int
        var alreadyApplied: Int
        var skippedInvalid: Int
    }

    var plan: Plan
    var report: Report?
    var dryRun: Bool
}
