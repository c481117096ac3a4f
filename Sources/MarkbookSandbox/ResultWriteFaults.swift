import Foundation

@available(macOS 14, iOS 17, tvOS 17, *)
extension MarkbookSandboxModule {
    /// One result cell: a student and a task (keys are unique across the sandbox's markbooks).
    public struct ResultCell: Sendable, Hashable, CustomStringConvertible {
        /// The student's key.
        public var studentKey: Int
        /// The task's key.
        public var taskKey: Int

        /// Creates a cell.
        public init(studentKey: Int, taskKey: Int) {
            self.studentKey = studentKey
            self.taskKey = taskKey
        }

        /// `STUDENTKEY:TASKKEY`, as ``MarkbookSandboxOptions/failCellsVariable`` takes it.
        public var description: String { "\(studentKey):\(taskKey)" }
    }
}

/// The result-write fault plan in force and the successful writes counted since it was set.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ResultFaultState: Sendable {
    var faults: MarkbookSandboxOptions.ResultWriteFaults
    var successfulWrites = 0

    init(_ faults: MarkbookSandboxOptions.ResultWriteFaults) {
        self.faults = faults
    }

    /// The cell a `putstudentresult` names, when its keys are whole numbers.
    static func cell(_ query: Parameters) -> MarkbookSandboxModule.ResultCell? {
        guard let student = query["studentkey"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
            let task = query["taskkey"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
        else { return nil }
        return MarkbookSandboxModule.ResultCell(studentKey: student, taskKey: task)
    }

    /// The failure due for this write, if any.
    func failure(for query: Parameters) -> MarkbookSandboxOptions.ResultWriteFaults.Failure? {
        if let limit = faults.failAfterWrites, successfulWrites >= limit { return faults.failure }
        if let cell = Self.cell(query), faults.cells.contains(cell) { return faults.failure }
        return nil
    }
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension MarkbookSandboxOptions.ResultWriteFaults.Failure {
    /// Whether the write is applied before the failure is answered.
    var appliesWrite: Bool {
        if case .lostAnswer = self { return true }
        return false
    }

    /// The `ERROR:` status to answer with, when the failure is a status.
    var status: String? {
        if case .status(let reason) = self { return "ERROR:\(reason)" }
        return nil
    }

    /// The HTTP status to answer with, when the failure is an HTTP one.
    var httpStatus: Int? {
        switch self {
        case .status: return nil
        case .httpStatus(let code), .lostAnswer(let code): return code
        }
    }
}
