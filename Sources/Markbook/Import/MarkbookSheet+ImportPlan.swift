import Foundation
import HTTPCore

extension MarkbookSheet {
    /// Plans writing `grid`'s results into this markbook: what changes, what already matches, and
    /// what cannot be written. Nothing is sent; see ``MarkbookImportPlan``.
    ///
    /// Students are matched by sid (trimmed, exactly). A task column matches the task whose name
    /// equals its header (trimmed, case-insensitively) or, failing that, whose key it is; a name
    /// shared by two tasks matches neither, so the column must be headed by a key. Cells are
    /// trimmed; a blank cell means no change. A cell that already holds the intended result is
    /// unchanged even when it breaks `rules` (a result entered before the rules applied).
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` when two columns name the same task, since
    ///   either could win and the other's values would be lost.
    public func importPlan(
        _ grid: MarkbookGrid,
        rules: MarkbookResultRules = MarkbookResultRules()
    ) throws -> MarkbookImportPlan {
        let columns = try importColumns(grid)
        var plan = MarkbookImportPlan(markbookKey: key, changes: [], unknownColumns: columns.unknown)
        var firstRowBySID: [String: Int] = [:]
        for row in grid.rows {
            let cells = columns.tasks.map { column in
                (task: column.task, column: column.column, value: cellValue(row, column.index))
            }
            let hasValues = cells.contains { !$0.value.isEmpty }
            guard !row.sid.isEmpty else {
                if hasValues {
                    plan.invalid.append(
                        .init(
                            rowNumber: row.rowNumber,
                            columnNumber: nil,
                            sid: "",
                            header: nil,
                            value: "",
                            reason: .missingSID
                        )
                    )
                }
                continue
            }
            if let first = firstRowBySID[row.sid] {
                if hasValues {
                    plan.invalid.append(
                        .init(
                            rowNumber: row.rowNumber,
                            columnNumber: nil,
                            sid: row.sid,
                            header: nil,
                            value: "",
                            reason: .duplicateStudent(firstRowNumber: first)
                        )
                    )
                }
                continue
            }
            firstRowBySID[row.sid] = row.rowNumber
            guard let student = student(sid: row.sid) else {
                plan.unknownStudents.append(.init(rowNumber: row.rowNumber, sid: row.sid))
                continue
            }
            for cell in cells {
                guard !cell.value.isEmpty else {
                    plan.blankCells += 1
                    continue
                }
                let target = MarkbookCell(studentKey: student.key, taskKey: cell.task.key)
                let current = result(studentKey: student.key, taskKey: cell.task.key)
                if let current, MarkbookResultRules.sameResult(current.raw, cell.value) {
                    plan.unchanged.append(
                        .init(cell: target, value: MarkbookResultRules.display(current.raw), rowNumber: row.rowNumber)
                    )
                    continue
                }
                switch rules.check(cell.value, for: cell.task) {
                case .failure(let problem):
                    plan.invalid.append(
                        .init(
                            rowNumber: row.rowNumber,
                            columnNumber: cell.column.columnNumber,
                            sid: row.sid,
                            header: cell.column.header,
                            value: cell.value,
                            reason: .value(problem)
                        )
                    )
                case .success(let value):
                    plan.changes.append(
                        .init(student: student, task: cell.task, old: current, new: value, rowNumber: row.rowNumber)
                    )
                }
            }
        }
        return plan
    }

    private func cellValue(_ row: MarkbookGrid.Row, _ index: Int) -> String {
        index < row.cells.count ? row.cells[index].trimmingCharacters(in: .whitespaces) : ""
    }

    private struct ImportColumns {
        var tasks: [(task: MarkbookTask, column: MarkbookGrid.TaskColumn, index: Int)] = []
        var unknown: [MarkbookImportPlan.UnknownColumn] = []
    }

    /// Which task each column names; columns naming none are unknown, blank ones with no values
    /// are dropped.
    private func importColumns(_ grid: MarkbookGrid) throws -> ImportColumns {
        var columns = ImportColumns()
        for (index, column) in grid.taskColumns.enumerated() {
            let header = column.header.trimmingCharacters(in: .whitespaces)
            if header.isEmpty {
                if grid.rows.contains(where: { !cellValue($0, index).isEmpty }) {
                    columns.unknown.append(.init(columnNumber: column.columnNumber, header: ""))
                }
                continue
            }
            let named = tasks.filter { MarkbookGrid.sameHeader($0.name, header) }
            guard named.count <= 1 else {
                columns.unknown.append(
                    .init(columnNumber: column.columnNumber, header: header, ambiguousTaskKeys: named.map(\.key))
                )
                continue
            }
            guard let task = named.first ?? Int(header).flatMap({ self.task(key: $0) }) else {
                columns.unknown.append(.init(columnNumber: column.columnNumber, header: header))
                continue
            }
            if let earlier = columns.tasks.first(where: { $0.task.key == task.key }) {
                throw APIError.usage(
                    "Columns \(earlier.column.columnNumber) (\"\(earlier.column.header)\") and \(column.columnNumber) "
                        + "(\"\(header)\") both name the task \"\(task.name)\" (key \(task.key)).",
                    hint: "Keep one column per task."
                )
            }
            columns.tasks.append((task, column, index))
        }
        return columns
    }
}
