import HTTPCore

/// Plans and applies imports of results into a markbook: the engine behind `markbook import`,
/// for apps that offer the same feature.
///
/// ```swift
/// let importer = MarkbookImporter(client: client, maximumConcurrentWrites: 4)
/// let grid = try MarkbookGrid(table: DelimitedText.csv.read(Data(contentsOf: file)))
/// let plan = try await importer.plan(markbookKey: 1000001, grid: grid)
/// // show plan.changes (old → new), plan.invalid, plan.unknownStudents, plan.unknownColumns …
/// let report = try await importer.apply(plan) { progress in
///     print("\(progress.completed)/\(progress.total)")
/// }
/// if !report.isComplete { /* report.failed, report.unknownOutcome, report.conflicts, report.notAttempted */ }
/// ```
///
/// **Nothing skipped silently.** A plan with invalid values or with columns that name no task
/// writes nothing unless the caller says to skip them (``apply(_:skippingInvalid:ignoringUnknownColumns:progress:)``):
/// a misspelt header would otherwise drop a whole column of marks without a word.
///
/// **Safe to interrupt and re-run.** Each change is one `putstudentresult`, an absolute write
/// that is safe to repeat. ``apply(_:skippingInvalid:ignoringUnknownColumns:progress:)`` reads the markbook again before
/// writing and sends only the changes that are still needed: a result that already holds the new
/// value (written by an interrupted run) is not written again, and a result someone else changed
/// since the plan was made is left alone and reported as a conflict. Each cell is written at most
/// once per run, and a plan with two different values for one cell is refused, so nothing is
/// written twice to a different value.
///
/// **Failures.** A change is reported applied only when the API confirmed it. A write whose answer
/// was lost (a gateway's 5xx, a connection lost after sending, an unreadable answer) may or may not
/// have reached the markbook: it is reported as an unknown outcome, and running the import again
/// finds out (the cells it wrote then plan as unchanged). After a failure
/// that concerns one cell (`not_found`, `validation`) the other writes go on; after any other
/// failure (network, server, credentials) no new write starts, since the rest would most likely
/// fail the same way, and the unsent changes are reported as not attempted. Cancelling the
/// calling task stops new writes the same way.
public struct MarkbookImporter: Sendable {
    /// Writes in flight at once unless told otherwise.
    public static let defaultMaximumConcurrentWrites = 4

    /// The client writes go through.
    public let client: MarkbookClient
    /// The most `putstudentresult` calls in flight at once.
    public let maximumConcurrentWrites: Int

    /// Creates an importer.
    ///
    /// - Parameter maximumConcurrentWrites: The most writes in flight at once; at least 1.
    public init(
        client: MarkbookClient,
        maximumConcurrentWrites: Int = MarkbookImporter.defaultMaximumConcurrentWrites
    ) {
        self.client = client
        self.maximumConcurrentWrites = maximumConcurrentWrites
    }

    /// Reads the markbook and plans writing `grid` into it.
    ///
    /// - Throws: ``HTTPCore/APIError`` from reading the markbook, or `usage` from
    ///   ``MarkbookSheet/importPlan(_:rules:)``.
    public func plan(
        markbookKey: Int,
        grid: MarkbookGrid,
        rules: MarkbookResultRules = MarkbookResultRules()
    ) async throws -> MarkbookImportPlan {
        try await client.getMarkbook(key: markbookKey).importPlan(grid, rules: rules)
    }

    /// Applies `plan`: reads the markbook again, then writes each change that is still needed,
    /// at most ``maximumConcurrentWrites`` at a time, reporting each finished write to
    /// `progress` (called one at a time, first with nothing completed).
    ///
    /// - Parameters:
    ///   - skippingInvalid: Write the valid changes even when the plan has invalid values.
    ///   - ignoringUnknownColumns: Write the known columns even when some name no task.
    ///   - progress: Called before the first write and after each one.
    /// - Returns: What was applied, failed, had an unknown outcome, was already applied,
    ///   conflicted or was not attempted. Once writing has started, failures are reported here
    ///   rather than thrown.
    /// - Throws: ``HTTPCore/APIError``, before anything is written: `validation` when the plan has
    ///   columns that name no task (and `ignoringUnknownColumns` is false) or invalid values (and
    ///   `skippingInvalid` is false); `usage` for a concurrency below 1 or a plan with two values
    ///   for one cell; any error from reading the markbook again.
    public func apply(
        _ plan: MarkbookImportPlan,
        skippingInvalid: Bool = false,
        ignoringUnknownColumns: Bool = false,
        progress: @Sendable (MarkbookImportProgress) -> Void = { _ in }
    ) async throws -> MarkbookImportReport {
        try check(plan, skippingInvalid: skippingInvalid, ignoringUnknownColumns: ignoringUnknownColumns)
        var report = MarkbookImportReport(markbookKey: plan.markbookKey)
        report.unchangedInPlan = plan.unchanged.count
        report.skippedInvalid = plan.invalid.count
        var writes: [MarkbookImportPlan.Change] = []
        if !plan.changes.isEmpty {
            let current = try await client.getMarkbook(key: plan.markbookKey)
            var planned = Set<MarkbookCell>()
            for change in plan.changes where planned.insert(change.id).inserted {
                switch Self.state(of: change, in: current) {
                case .needed(let fresh): writes.append(fresh)
                case .alreadyApplied: report.alreadyApplied.append(change)
                case .conflict(let reason): report.conflicts.append(.init(change: change, reason: reason))
                }
            }
        }
        progress(MarkbookImportProgress(event: .started, completed: 0, total: writes.count))
        await write(writes, into: &report, progress: progress)
        return report
    }

    private func check(_ plan: MarkbookImportPlan, skippingInvalid: Bool, ignoringUnknownColumns: Bool) throws {
        guard maximumConcurrentWrites >= 1 else {
            throw APIError.usage("The import's concurrency must be at least 1, not \(maximumConcurrentWrites).")
        }
        if !plan.unknownColumns.isEmpty, !ignoringUnknownColumns {
            throw plan.unknownColumnsError()
        }
        if plan.hasInvalidValues, !skippingInvalid {
            let count = plan.invalid.count
            throw APIError.validation(
                APIError.Details(
                    message: "\(count) value\(count == 1 ? " is" : "s are") invalid; nothing was written.",
                    hint: "Correct them in the file, or skip them and write the rest."
                )
            )
        }
        var values: [MarkbookCell: String] = [:]
        for change in plan.changes {
            if let earlier = values.updateValue(change.new, forKey: change.id), earlier != change.new {
                throw APIError.usage(
                    "The plan writes both \"\(earlier)\" and \"\(change.new)\" to student \(change.student.studentID)'s "
                        + "\"\(change.task.name)\"; nothing was written."
                )
            }
        }
    }

    private enum ChangeState {
        case needed(MarkbookImportPlan.Change)
        case alreadyApplied
        case conflict(MarkbookImportReport.Conflict.Reason)
    }

    /// Where a planned change stands against the markbook as read now. A needed change carries
    /// the student and task as read now, so the sid and task name sent match the keys.
    private static func state(of change: MarkbookImportPlan.Change, in sheet: MarkbookSheet) -> ChangeState {
        guard let student = sheet.student(key: change.student.key), student.studentID == change.student.studentID
        else { return .conflict(.studentGone) }
        guard let task = sheet.task(key: change.task.key) else { return .conflict(.taskGone) }
        let current = sheet.result(studentKey: student.key, taskKey: task.key)
        if let current, MarkbookResultRules.sameResult(current.raw, change.new) { return .alreadyApplied }
        let unchangedSincePlan: Bool
        switch (current, change.old) {
        case (nil, nil): unchangedSincePlan = true
        case (let now?, let then?): unchangedSincePlan = MarkbookResultRules.sameResult(now.raw, then.raw)
        default: unchangedSincePlan = false
        }
        guard unchangedSincePlan else { return .conflict(.changedSincePlan(current: current)) }
        var fresh = change
        fresh.student = student
        fresh.task = task
        return .needed(fresh)
    }

    /// Sends the writes, at most ``maximumConcurrentWrites`` at once, recording each outcome.
    private func write(
        _ writes: [MarkbookImportPlan.Change],
        into report: inout MarkbookImportReport,
        progress: @Sendable (MarkbookImportProgress) -> Void
    ) async {
        let client = client
        let markbookKey = report.markbookKey
        var applied: [Int] = []
        var failed: [(index: Int, error: any Error)] = []
        var unknown: [(index: Int, error: any Error)] = []
        var started = 0
        await withTaskGroup(of: (Int, (any Error)?).self) { group in
            func startNext() {
                let index = started
                let change = writes[index]
                started += 1
                group.addTask {
                    do {
                        try await client.putStudentResult(
                            markbookKey: markbookKey,
                            student: change.student,
                            task: change.task,
                            result: change.new
                        )
                        return (index, nil)
                    } catch {
                        return (index, error)
                    }
                }
            }
            while started < min(writes.count, maximumConcurrentWrites) { startNext() }
            var stopping = false
            var completed = 0
            while let (index, error) = await group.next() {
                completed += 1
                let event: MarkbookImportProgress.Event
                if let error, MarkbookImportReport.outcomeIsUnknown(error) {
                    unknown.append((index, error))
                    stopping = true
                    event = .outcomeUnknown(writes[index], error)
                } else if let error {
                    failed.append((index, error))
                    stopping = stopping || !Self.concernsOneCell(error)
                    event = .failed(writes[index], error)
                } else {
                    applied.append(index)
                    event = .applied(writes[index])
                }
                progress(MarkbookImportProgress(event: event, completed: completed, total: writes.count))
                if !stopping, !Task.isCancelled, started < writes.count { startNext() }
            }
        }
        report.applied = applied.sorted().map { writes[$0] }
        report.failed = failed.sorted { $0.index < $1.index }.map { .init(change: writes[$0.index], error: $0.error) }
        report.unknownOutcome = unknown.sorted { $0.index < $1.index }.map {
            .init(change: writes[$0.index], error: $0.error)
        }
        report.notAttempted = Array(writes[started...])
    }

    /// Whether a failed write says something about its own cell only, so the others may go on: the
    /// API's own `ERROR:` answer naming a missing thing or a refused value. An HTTP error status is
    /// a transport-level failure (a wrong address, a proxy) that speaks for every write.
    private static func concernsOneCell(_ error: any Error) -> Bool {
        guard let error = error as? APIError, error.details.rawStatus != nil else { return false }
        return error.code == .notFound || error.code == .validation
    }
}

/// How far an import's writes have got, reported after each one.
public struct MarkbookImportProgress: Sendable {
    /// What just happened.
    public enum Event: Sendable {
        /// The markbook was read again and writing is about to start.
        case started
        /// A change was confirmed by the API.
        case applied(MarkbookImportPlan.Change)
        /// A change's write failed with the error.
        case failed(MarkbookImportPlan.Change, any Error)
        /// A change's write ended with the error after it may have reached the markbook.
        case outcomeUnknown(MarkbookImportPlan.Change, any Error)
    }

    /// What just happened.
    public var event: Event
    /// Writes finished so far, applied or failed.
    public var completed: Int
    /// Writes this run will send at most (changes still needed after reading the markbook again).
    public var total: Int

    /// Creates a progress report.
    public init(event: Event, completed: Int, total: Int) {
        self.event = event
        self.completed = completed
        self.total = total
    }
}
