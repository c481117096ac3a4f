import CLISupport
import Foundation
import Markbook

/// How `markbook import` shows a plan: a summary line and one table per kind of entry, or the
/// same as JSON. Long lists of refusals show their first ``shortListLength`` entries unless
/// ``listsAll`` (`--verbose`); JSON always has every entry.
struct ImportPlanView {
    /// How many entries a list of unknown students or invalid values shows without `--verbose`.
    static let shortListLength = 10

    var plan: MarkbookImportPlan
    var file: String
    /// Whether invalid values are skipped (`--skip-invalid`) rather than stopping the import.
    var skipsInvalid = false
    /// Whether unknown columns are ignored (`--ignore-unknown-columns`) rather than stopping it.
    var ignoresUnknownColumns = false
    /// Whether every entry of a long list is printed (`--verbose`).
    var listsAll = false

    struct JSON: Encodable {
        struct Change: Encodable {
            var row: Int
            var sid: String
            var student: String
            var studentKey: Int
            var task: String
            var taskKey: Int
            var old: Nullable<String>
            var new: String
        }

        struct Invalid: Encodable {
            var row: Int
            var column: Nullable<Int>
            var sid: String
            var header: Nullable<String>
            var value: String
            var code: String
            var reason: String
        }

        struct UnknownStudent: Encodable {
            var row: Int
            var sid: String
        }

        struct UnknownColumn: Encodable {
            var column: Int
            var header: String
            var ambiguousTaskKeys: [Int]
        }

        var markbookKey: Int
        var file: String
        var changes: [Change]
        var unchanged: Int
        var blankCells: Int
        var invalid: [Invalid]
        var unknownStudents: [UnknownStudent]
        var unknownColumns: [UnknownColumn]
    }

    var json: JSON {
        JSON(
            markbookKey: plan.markbookKey,
            file: file,
            changes: plan.changes.map {
                JSON.Change(
                    row: $0.rowNumber,
                    sid: $0.student.studentID,
                    student: $0.student.sortName,
                    studentKey: $0.student.key,
                    task: $0.task.name,
                    taskKey: $0.task.key,
                    old: Nullable($0.old == nil ? nil : $0.oldDisplay),
                    new: $0.new
                )
            },
            unchanged: plan.unchanged.count,
            blankCells: plan.blankCells,
            invalid: plan.invalid.map {
                JSON.Invalid(
                    row: $0.rowNumber,
                    column: Nullable($0.columnNumber),
                    sid: $0.sid,
                    header: Nullable($0.header),
                    value: $0.value,
                    code: $0.reason.code,
                    reason: $0.reason.description
                )
            },
            unknownStudents: plan.unknownStudents.map { JSON.UnknownStudent(row: $0.rowNumber, sid: $0.sid) },
            unknownColumns: plan.unknownColumns.map {
                JSON.UnknownColumn(column: $0.columnNumber, header: $0.header, ambiguousTaskKeys: $0.ambiguousTaskKeys)
            }
        )
    }

    /// The one-line summary: `3 changes · 40 unchanged · 1 invalid · …`.
    var summary: String {
        var parts = [Self.count(plan.changes.count, "change"), "\(plan.unchanged.count) unchanged"]
        if !plan.invalid.isEmpty { parts.append("\(plan.invalid.count) invalid") }
        if !plan.unknownStudents.isEmpty { parts.append(Self.count(plan.unknownStudents.count, "unknown student")) }
        if !plan.unknownColumns.isEmpty { parts.append(Self.count(plan.unknownColumns.count, "unknown column")) }
        if plan.blankCells > 0 { parts.append(Self.count(plan.blankCells, "blank cell")) }
        return parts.joined(separator: " · ")
    }

    func print(in context: CommandContext) {
        context.print("Plan for markbook \(plan.markbookKey) from \(file): \(summary)")
        if !plan.changes.isEmpty {
            context.print()
            context.print("Changes (old -> new):")
            var table = Self.table(["ROW", "SID", "STUDENT", "TASK", "OLD", "", "NEW"], right: [0])
            for change in plan.changes {
                table.append([
                    String(change.rowNumber), change.student.studentID, change.student.sortName, change.task.name,
                    change.old == nil ? "-" : change.oldDisplay, "->", change.new,
                ])
            }
            context.print(table)
        }
        if !plan.invalid.isEmpty {
            context.print()
            context.print(
                skipsInvalid
                    ? "Invalid values (left alone):"
                    : "Invalid values (nothing is written while any is left, unless --skip-invalid):"
            )
            var table = Self.table(["ROW", "COLUMN", "SID", "VALUE", "PROBLEM"], right: [0])
            for entry in shortened(plan.invalid) {
                let column =
                    entry.columnNumber.map { "\(MarkbookGrid.columnLetters($0)) \(entry.header ?? "")" } ?? "(row)"
                table.append([String(entry.rowNumber), column, entry.sid, entry.value, entry.reason.description])
            }
            context.print(table)
            printRest(of: plan.invalid, "invalid values", in: context)
        }
        if !plan.unknownStudents.isEmpty {
            context.print()
            context.print("Rows whose sid is not in the markbook (left alone):")
            var table = Self.table(["ROW", "SID"], right: [0])
            for entry in shortened(plan.unknownStudents) { table.append([String(entry.rowNumber), entry.sid]) }
            context.print(table)
            printRest(of: plan.unknownStudents, "unknown students", in: context)
        }
        if !plan.unknownColumns.isEmpty {
            context.print()
            context.print(
                ignoresUnknownColumns
                    ? "Columns that name no task (left alone):"
                    : "Columns that name no task (nothing is written while any is left, unless --ignore-unknown-columns):"
            )
            var table = Self.table(["COLUMN", "HEADER", "NOTE"], right: [])
            for entry in plan.unknownColumns {
                let note =
                    entry.ambiguousTaskKeys.isEmpty
                    ? ""
                    : "several tasks have this name: head it with a key, one of \(Self.list(entry.ambiguousTaskKeys))"
                table.append([MarkbookGrid.columnLetters(entry.columnNumber), entry.header, note])
            }
            context.print(table)
        }
        context.print()
    }

    /// `entries`, or only the first ``shortListLength`` unless ``listsAll``.
    func shortened<Entry>(_ entries: [Entry]) -> ArraySlice<Entry> {
        listsAll ? entries[...] : entries.prefix(Self.shortListLength)
    }

    /// `… and 9990 more unknown students (--verbose lists them all).` when ``shortened(_:)`` left
    /// some out.
    func printRest<Entry>(of entries: [Entry], _ noun: String, in context: CommandContext) {
        let hidden = entries.count - shortened(entries).count
        guard hidden > 0 else { return }
        context.print("… and \(hidden) more \(noun) (--verbose lists them all).")
    }

    static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    private static func list(_ keys: [Int]) -> String {
        keys.map(String.init).joined(separator: ", ")
    }

    private static func table(_ headers: [String], right: Set<Int>) -> TextTable {
        TextTable(
            columns: headers.enumerated().map { index, header in
                TextTable.Column(header, alignment: right.contains(index) ? .right : .left)
            }
        )
    }
}
