import Foundation

/// A markbook's students × tasks grid as a table: the layout `markbook export` writes and
/// `markbook import` reads, for spreadsheets.
///
/// | sid | family name | given name | preferred name | class | Algebra test | Term 1 exam |
/// |---|---|---|---|---|---|---|
/// | maximum | | | | | 50 | 100 |
/// | 100234 | Adams | Olivia | | 10MAT1-A | 42.5 | 81 |
///
/// The first row is the header: the five identity columns, then one column per task headed by
/// the task's name. The row whose `sid` cell is `maximum` holds each task's maximum; it is written
/// second and may stand anywhere when read back (a sorted spreadsheet moves it). Results are
/// written in their shortest form (`"67.500000"` → `67.5`); an empty cell means no result.
///
/// Reading (``init(table:)``) is tolerant: columns may come in any order, identity headers may be
/// spelt `Family Name`, `family_name` or `surname`, extra columns are kept (an import plan reports
/// the ones that name no task), short rows are padded with blank cells and empty rows are
/// skipped. Only `sid` is required. Use ``table()`` and ``init(table:)`` with a CSV, TSV or JSON
/// writer and reader, such as ``DelimitedText``.
public struct MarkbookGrid: Sendable, Hashable {
    /// The identity columns' headers, in the order they are written.
    public static let identityHeaders = ["sid", "family name", "given name", "preferred name", "class"]
    /// The `sid` cell that marks the row of maxima.
    public static let maximumRowLabel = "maximum"

    /// A column after the identity columns: normally a task, headed by its name (or key).
    public struct TaskColumn: Sendable, Hashable {
        /// The header as written.
        public var header: String
        /// The cell in the maxima row, as written; `nil` when the table has no such row.
        public var maximum: String?
        /// Where the column stands in the table, counting from 1.
        public var columnNumber: Int

        /// Creates a column.
        public init(header: String, maximum: String? = nil, columnNumber: Int) {
            self.header = header
            self.maximum = maximum
            self.columnNumber = columnNumber
        }
    }

    /// One student's row.
    public struct Row: Sendable, Hashable {
        /// The school's student id (`sid`), trimmed.
        public var sid: String
        /// Family name, as written.
        public var familyName: String
        /// Given name, as written.
        public var givenName: String
        /// Preferred name, as written.
        public var preferredName: String
        /// Class name, as written.
        public var className: String
        /// One cell per ``MarkbookGrid/taskColumns`` entry, in the same order; `""` is blank.
        public var cells: [String]
        /// Where the row stands in the table, counting the header as row 1 (a spreadsheet's row
        /// number).
        public var rowNumber: Int

        /// Creates a row.
        public init(
            sid: String,
            familyName: String = "",
            givenName: String = "",
            preferredName: String = "",
            className: String = "",
            cells: [String],
            rowNumber: Int
        ) {
            self.sid = sid
            self.familyName = familyName
            self.givenName = givenName
            self.preferredName = preferredName
            self.className = className
            self.cells = cells
            self.rowNumber = rowNumber
        }
    }

    /// The task columns, in table order.
    public var taskColumns: [TaskColumn]
    /// The student rows, in table order (the maxima row and empty rows left out).
    public var rows: [Row]

    /// Creates a grid from its parts.
    public init(taskColumns: [TaskColumn], rows: [Row]) {
        self.taskColumns = taskColumns
        self.rows = rows
    }

    /// The grid of `sheet`: its students in the API's order, its tasks as columns with their
    /// maxima, and every result in its shortest form.
    ///
    /// A column is headed by its task's name, or by the task's key where an import would read the
    /// name as something else: a name another task shares (compared as an import compares
    /// headers), an identity column's header (`Class`, `First name`…) or a blank. So the grid
    /// imports back unchanged.
    public init(sheet: MarkbookSheet) {
        let identityCount = Self.identityHeaders.count
        taskColumns = sheet.tasks.enumerated().map { index, task in
            let keyed =
                task.name.trimmingCharacters(in: .whitespaces).isEmpty || Identity(header: task.name) != nil
                || sheet.tasks.contains { $0.key != task.key && Self.sameHeader($0.name, task.name) }
            return TaskColumn(
                header: keyed ? String(task.key) : task.name,
                maximum: String(task.maximum),
                columnNumber: identityCount + index + 1
            )
        }
        rows = sheet.students.enumerated().map { index, student in
            Row(
                sid: student.studentID,
                familyName: student.familyName,
                givenName: student.givenName,
                preferredName: student.preferredName,
                className: student.className,
                cells: sheet.tasks.map { task in
                    sheet.result(studentKey: student.key, taskKey: task.key).map {
                        MarkbookResultRules.display($0.raw)
                    } ?? ""
                },
                rowNumber: index + 3
            )
        }
    }

    /// The cell of `row` in the column with `header` (compared trimmed and case-insensitively),
    /// or `nil` when there is no such column.
    public func cell(_ row: Row, header: String) -> String? {
        guard let index = taskColumns.firstIndex(where: { Self.sameHeader($0.header, header) }),
            index < row.cells.count
        else { return nil }
        return row.cells[index]
    }

    /// A column's letters as a spreadsheet shows them: 1 is `A`, 27 is `AA`.
    public static func columnLetters(_ column: Int) -> String {
        var number = column
        var text = ""
        while number > 0 {
            let remainder = (number - 1) % 26
            text = String(UnicodeScalar(UInt8(65 + remainder))) + text
            number = (number - 1) / 26
        }
        return text
    }

    static func sameHeader(_ first: String, _ second: String) -> Bool {
        first.trimmingCharacters(in: .whitespaces).lowercased()
            == second.trimmingCharacters(in: .whitespaces)
            .lowercased()
    }
}
