import CLISupport
import Foundation
import HTTPCore
import Markbook

/// How `markbook import` reports what applying its plan did, and the exit code that follows.
/// Each list of writes not confirmed shows its first entries unless ``listsAll`` (`--verbose`).
struct ImportReportView {
    var report: MarkbookImportReport
    var plan: MarkbookImportPlan
    /// Whether every entry of a long list is printed (`--verbose`).
    var listsAll = false

    struct JSON: Encodable {
        struct Entry: Encodable {
            var row: Int
            var sid: String
            var task: String
            var new: String
            var code: Nullable<String>
            var message: Nullable<String>
        }

        var complete: Bool
        var applied: Int
        var failed: [Entry]
        var unknownOutcome: [Entry]
        var unchanged: Int
        var alreadyApplied: Int
        var conflicts: [Entry]
        var notAttempted: [Entry]
        var skippedInvalid: Int
    }

    var json: JSON {
        JSON(
            complete: report.isComplete,
            applied: report.applied.count,
            failed: report.failed.map { Self.entry($0.change, code: $0.code, message: Self.message($0.error)) },
            unknownOutcome: report.unknownOutcome.map {
                Self.entry($0.change, code: $0.code, message: Self.message($0.error))
            },
            unchanged: report.unchangedCount,
            alreadyApplied: report.alreadyApplied.count,
            conflicts: report.conflicts.map {
                Self.entry($0.change, code: "conflict", message: Self.describe($0.reason))
            },
            notAttempted: report.notAttempted.map { Self.entry($0, code: nil, message: nil) },
            skippedInvalid: report.skippedInvalid
        )
    }

    func print(in context: CommandContext) {
        let lists = ImportPlanView(plan: plan, file: "", listsAll: listsAll)
        for failure in lists.shortened(report.failed) {
            context.print("Failed: \(Self.describe(failure.change)): \(failure.code): \(Self.message(failure.error))")
        }
        lists.printRest(of: report.failed, "failed writes", in: context)
        for unknown in lists.shortened(report.unknownOutcome) {
            context.print(
                "Unknown outcome: \(Self.describe(unknown.change)): \(unknown.code): \(Self.message(unknown.error)) "
                    + "(its answer was lost; re-run to check)"
            )
        }
        lists.printRest(of: report.unknownOutcome, "writes of unknown outcome", in: context)
        for conflict in lists.shortened(report.conflicts) {
            context.print("Left alone: \(Self.describe(conflict.change)): \(Self.describe(conflict.reason))")
        }
        lists.printRest(of: report.conflicts, "conflicts", in: context)
        let head = report.isComplete ? "Import complete" : "Import INCOMPLETE"
        var parts = ["applied \(report.applied.count)", "failed \(report.failed.count)"]
        if !report.unknownOutcome.isEmpty { parts.append("unknown outcome \(report.unknownOutcome.count)") }
        parts.append("unchanged \(report.unchangedCount)")
        if !report.alreadyApplied.isEmpty { parts.append("already applied \(report.alreadyApplied.count)") }
        if !report.conflicts.isEmpty { parts.append("conflicts \(report.conflicts.count)") }
        if !report.notAttempted.isEmpty { parts.append("not attempted \(report.notAttempted.count)") }
        if report.skippedInvalid > 0 { parts.append("invalid skipped \(report.skippedInvalid)") }
        context.print("\(head): " + parts.joined(separator: ", ") + ".")
    }

    /// Throws the failure that decides the exit code when the report is not complete, in the order
    /// the help gives: `ambiguous` for writes of unknown outcome, else `import_conflict`, else the
    /// first failed write's. A script must learn first that the markbook may hold writes it was not
    /// told of, then that it changed under the import.
    func checkComplete() throws {
        guard !report.isComplete else { return }
        let unconfirmed = report.unknownOutcome.count
        let missing = report.failed.count + report.conflicts.count + report.notAttempted.count
        let total = plan.changes.count
        var counts = missing > 0 ? ["\(ImportPlanView.count(missing, "change")) of \(total) not written"] : []
        if unconfirmed > 0 {
            counts.append(
                missing > 0
                    ? "\(unconfirmed) not confirmed"
                    : "\(ImportPlanView.count(unconfirmed, "change")) of \(total) not confirmed"
            )
        }
        let summary = counts.joined(separator: ", ")
        let hint = "Run the same import again: it reads the markbook first and writes only what is still different."
        if unconfirmed > 0 {
            let writes = unconfirmed == 1 ? "1 write was" : "\(unconfirmed) writes were"
            throw APIError.ambiguous(
                APIError.Details(
                    message: "The import is incomplete (\(summary)): the answers to \(writes) lost, so they may "
                        + "or may not be in the markbook.",
                    hint: "Re-run the same import to check: it reads the markbook first, shows the writes that "
                        + "landed as unchanged, and writes only what is still different."
                )
            )
        }
        if report.conflicts.isEmpty {
            if let error = report.firstError as? APIError {
                var copy = error
                copy.details.message = "The import is incomplete (\(summary)): \(error.message)"
                copy.details.hint = hint
                throw copy
            }
            if let error = report.firstError { throw error }
            // Changes left unsent with no failure and no conflict: the import was cancelled.
            throw CancellationError()
        }
        throw CommandFailure(
            code: "import_conflict",
            message: "The import is incomplete (\(summary)): results changed in the markbook while importing.",
            hint: "Export again to see the markbook as it is now, then import again.",
            exitCode: ImportCommand.conflictExitCode
        )
    }

    /// A progress bar: `Writing results [########------------] 12/30`.
    static func bar(completed: Int, total: Int, width: Int = 20) -> String {
        let filled = total > 0 ? min(width, completed * width / total) : width
        return "Writing results [" + String(repeating: "#", count: filled)
            + String(repeating: "-", count: width - filled) + "] \(completed)/\(total)"
    }

    private static func entry(_ change: MarkbookImportPlan.Change, code: String?, message: String?) -> JSON.Entry {
        JSON.Entry(
            row: change.rowNumber,
            sid: change.student.studentID,
            task: change.task.name,
            new: change.new,
            code: Nullable(code),
            message: Nullable(message)
        )
    }

    private static func describe(_ change: MarkbookImportPlan.Change) -> String {
        "row \(change.rowNumber) \(change.student.studentID) \(change.student.sortName) · \(change.task.name) -> \(change.new)"
    }

    private static func describe(_ reason: MarkbookImportReport.Conflict.Reason) -> String {
        switch reason {
        case .changedSincePlan(let current):
            let now = current.map { MarkbookResultRules.display($0.raw) } ?? "no result"
            return "changed to \(now) since the plan was made"
        case .studentGone: return "the student is no longer in the markbook"
        case .taskGone: return "the task is no longer in the markbook"
        }
    }

    private static func message(_ error: any Error) -> String {
        if let error = error as? APIError { return error.message }
        return error is CancellationError ? "cancelled" : "\(error)"
    }
}
