/// What an import would do to a markbook: the plan an app shows before writing anything.
///
/// Made by ``MarkbookSheet/importPlan(_:rules:)`` from a markbook as just read and a table of
/// intended results (a ``MarkbookGrid``), it sorts every non-blank cell into one of:
///
/// - ``changes``: the result will be written (old → new);
/// - ``unchanged``: the markbook already holds that result (`67.5` and `67.500000` are equal);
/// - ``invalid``: the value breaks ``MarkbookResultRules``, or its row cannot be trusted (no sid,
///   a sid given twice); nothing in the plan is written while any is left, unless skipped;
///
/// and reports rows and columns it could not match: ``unknownStudents`` (a sid not in the
/// markbook, or a deleted student) and ``unknownColumns`` (a header naming no task, such as a
/// misspelt task name). Unknown students are left alone; unknown columns stop the import unless
/// the caller chooses to ignore them (``unknownColumnsError()``), since a typo in a header would
/// otherwise drop a whole column of marks. Blank cells mean "no change" and are only counted.
///
/// Apply it with ``MarkbookImporter/apply(_:skippingInvalid:ignoringUnknownColumns:progress:)``.
public struct MarkbookImportPlan: Sendable, Hashable {
    /// One result to write.
    public struct Change: Sendable, Hashable, Identifiable {
        /// The student, as the markbook lists them.
        public var student: MarkbookStudent
        /// The task.
        public var task: MarkbookTask
        /// The result the markbook held when planned; `nil` when it had none.
        public var old: MarkbookResult?
        /// The result to write, in its shortest form.
        public var new: String
        /// The table row the value came from (the header is row 1).
        public var rowNumber: Int

        /// Creates a change.
        public init(student: MarkbookStudent, task: MarkbookTask, old: MarkbookResult?, new: String, rowNumber: Int) {
            self.student = student
            self.task = task
            self.old = old
            self.new = new
            self.rowNumber = rowNumber
        }

        /// The cell: one student and one task.
        public var id: MarkbookCell { MarkbookCell(studentKey: student.key, taskKey: task.key) }
        /// The old result as an export shows it (`""` when there was none).
        public var oldDisplay: String { old.map { MarkbookResultRules.display($0.raw) } ?? "" }
    }

    /// A cell that already holds the intended result.
    public struct Unchanged: Sendable, Hashable {
        /// The cell.
        public var cell: MarkbookCell
        /// The result it holds, as an export shows it.
        public var value: String
        /// The table row.
        public var rowNumber: Int

        /// Creates an entry.
        public init(cell: MarkbookCell, value: String, rowNumber: Int) {
            self.cell = cell
            self.value = value
            self.rowNumber = rowNumber
        }
    }

    /// A value the plan refuses to write.
    public struct InvalidValue: Sendable, Hashable {
        /// Why.
        public enum Reason: Sendable, Hashable, CustomStringConvertible {
            /// The value breaks the result rules.
            case value(MarkbookValueProblem)
            /// The row has results but no sid.
            case missingSID
            /// The sid is on an earlier row too.
            case duplicateStudent(firstRowNumber: Int)

            /// A short stable code: the value problem's code, `missing_sid` or `duplicate_student`.
            public var code: String {
                switch self {
                case .value(let problem): return problem.code
                case .missingSID: return "missing_sid"
                case .duplicateStudent: return "duplicate_student"
                }
            }

            /// A sentence for people.
            public var description: String {
                switch self {
                case .value(let problem): return problem.description
                case .missingSID: return "the row has results but no sid"
                case .duplicateStudent(let first): return "the sid is already on row \(first)"
                }
            }
        }

        /// The table row.
        public var rowNumber: Int
        /// The table column (counting from 1), or `nil` when the whole row is refused.
        public var columnNumber: Int?
        /// The row's sid (may be empty).
        public var sid: String
        /// The column's header, or `nil` when the whole row is refused.
        public var header: String?
        /// The value as written, or `""` when the whole row is refused.
        public var value: String
        /// Why it is refused.
        public var reason: Reason

        /// Creates an entry.
        public init(rowNumber: Int, columnNumber: Int?, sid: String, header: String?, value: String, reason: Reason) {
            self.rowNumber = rowNumber
            self.columnNumber = columnNumber
            self.sid = sid
            self.header = header
            self.value = value
            self.reason = reason
        }
    }

    /// A row whose sid is not a student of the markbook.
    public struct UnknownStudent: Sendable, Hashable {
        /// The table row.
        public var rowNumber: Int
        /// The sid as written.
        public var sid: String

        /// Creates an entry.
        public init(rowNumber: Int, sid: String) {
            self.rowNumber = rowNumber
            self.sid = sid
        }
    }

    /// A column that names no task of the markbook (by name or key), or names one ambiguously.
    public struct UnknownColumn: Sendable, Hashable {
        /// The table column, counting from 1.
        public var columnNumber: Int
        /// The header as written (may be empty).
        public var header: String
        /// When several tasks have this name: their keys, any of which can head the column instead.
        public var ambiguousTaskKeys: [Int]

        /// Creates an entry.
        public init(columnNumber: Int, header: String, ambiguousTaskKeys: [Int] = []) {
            self.columnNumber = columnNumber
            self.header = header
            self.ambiguousTaskKeys = ambiguousTaskKeys
        }
    }

    /// The markbook planned against.
    public var markbookKey: Int
    /// Results to write, in table order (row by row, column by column).
    public var changes: [Change]
    /// Cells already holding their intended result.
    public var unchanged: [Unchanged]
    /// Values refused.
    public var invalid: [InvalidValue]
    /// Rows whose sid is not in the markbook.
    public var unknownStudents: [UnknownStudent]
    /// Columns that name no task.
    public var unknownColumns: [UnknownColumn]
    /// Blank cells in task columns of known students: no change.
    public var blankCells: Int

    /// Creates a plan from its parts.
    public init(
        markbookKey: Int,
        changes: [Change],
        unchanged: [Unchanged] = [],
        invalid: [InvalidValue] = [],
        unknownStudents: [UnknownStudent] = [],
        unknownColumns: [UnknownColumn] = [],
        blankCells: Int = 0
    ) {
        self.markbookKey = markbookKey
        self.changes = changes
        self.unchanged = unchanged
        self.invalid = invalid
        self.unknownStudents = unknownStudents
        self.unknownColumns = unknownColumns
        self.blankCells = blankCells
    }

    /// Whether any value is refused; applying then writes nothing unless told to skip them.
    public var hasInvalidValues: Bool { !invalid.isEmpty }
    /// Whether there is nothing to write.
    public var isEmpty: Bool { changes.isEmpty }
}

/// One cell of a markbook: a student's result for a task.
public struct MarkbookCell: Sendable, Hashable, Codable {
    /// The student's key.
    public var studentKey: Int
    /// The task's key.
    public var taskKey: Int

    /// Creates a cell.
    public init(studentKey: Int, taskKey: Int) {
        self.studentKey = studentKey
        self.taskKey = taskKey
    }
}
