/// A result written by ``MarkbookClient/setResult(markbookKey:studentKey:taskKey:to:rules:)``.
public struct MarkbookResultChange: Sendable, Hashable {
    /// The markbook.
    public var markbookKey: Int
    /// The student, as the markbook lists them.
    public var student: MarkbookStudent
    /// The task.
    public var task: MarkbookTask
    /// The result before the write; `nil` when there was none.
    public var previous: MarkbookResult?
    /// The text written, in its shortest form; `""` when the result was cleared.
    public var result: String

    /// Creates a change.
    public init(
        markbookKey: Int,
        student: MarkbookStudent,
        task: MarkbookTask,
        previous: MarkbookResult?,
        result: String
    ) {
        self.markbookKey = markbookKey
        self.student = student
        self.task = task
        self.previous = previous
        self.result = result
    }
}
