import BasecampSandbox
import Foundation
import HTTPCore
import MarkbookSandbox

extension ChaosSoakTests.SDKSoak {
    /// What the sandboxes recorded, read from the modules themselves.
    struct SandboxView: Sendable {
        /// Each result slot's stored text before the run and after it.
        var initialResults: [String?]
        var finalResults: [String?] = []
        /// The creates markbook's student keys before the run, and every student after it.
        var studentsBefore: Set<Int>
        var students: [MarkbookSandboxModule.StudentRecord] = []
        /// Every to-do before the run (by id), and after it.
        var todosBefore: [Int: SandboxRecording]
        var todos: [SandboxRecording] = []
        /// Markbook actions the sandbox refused, and the logins it served.
        var refusals: [String: Int] = [:]
        var logins = 0
    }

    /// One write to a value that later writes replace (a result, a to-do's content).
    struct Write {
        var index: Int
        var value: String
        var succeeded: Bool
        var started: ContinuousClock.Instant
        var ended: ContinuousClock.Instant
    }

    struct Report {
        var counts = SoakCounts<Kind>()
        var ambiguousByKind: [Kind: Int] = [:]
        var studentsCreated = 0
        var todosCreated = 0
        var appliedTwice = 0
        var refusals = 0
        var logins = 0

        var ambiguous: Int { ambiguousByKind.values.reduce(0, +) }

        func summary(elapsed: Duration, requests: Int, attempts: String) -> String {
            let ambiguousKinds = Kind.allCases.filter(\.isCreate)
                .map { "\($0.rawValue)=\(ambiguousByKind[$0, default: 0])" }.joined(separator: " ")
            return """
                [soak] SDK clients, Markbook + Basecamp sandboxes: operations=\(counts.total) requests=\(requests) \
                elapsed=\(elapsed) concurrency=\(ChaosSoakTests.concurrency)
                \(counts.summaryLines(attempts: attempts))
                [soak] ambiguous: \(ambiguous) (\(counts.ambiguousApplied) applied once, \
                \(ambiguous - counts.ambiguousApplied) not applied; \(ambiguousKinds))
                [soak] sandbox: students created=\(studentsCreated) todos created=\(todosCreated) \
                applied twice=\(appliedTwice) Markbook refusals=\(refusals) logins=\(logins); \
                problems: \(counts.problems.count)
                """
        }
    }

    /// Checks every call against the sandboxes' records:
    /// - every failure is an `APIError` whose code fits its cause, and `ambiguous` only for a create;
    /// - every create marker was applied at most once; exactly once (with the returned key) for a
    ///   success, never for a failure that is not `ambiguous`; and no record exists that no call made;
    /// - Markbook refused nothing (a create that reached it twice is refused as a duplicate id);
    /// - each result and each to-do's content was written by a call that could have been the last
    ///   (a success, or a failure that may have been applied, with no success starting after it ended);
    /// - a to-do completed by a successful call is completed, and none is completed without a call.
    static func audit(_ outcomes: [Outcome], _ view: SandboxView, fixture: Fixture) -> Report {
        var report = Report()
        report.counts.total = outcomes.count
        report.logins = view.logins

        let newStudents = view.students.filter { !view.studentsBefore.contains($0.key) }
        let newTodos = view.todos.filter { view.todosBefore[$0.id] == nil }
        let studentsByMarker = Dictionary(grouping: newStudents, by: \.familyName)
        let todosByMarker = Dictionary(grouping: newTodos, by: \.title)
        report.studentsCreated = newStudents.count
        report.todosCreated = newTodos.count
        for (marker, records) in studentsByMarker where records.count > 1 {
            report.appliedTwice += 1
            report.counts.problems.append("student \(marker) created \(records.count) times")
        }
        for (marker, records) in todosByMarker where records.count > 1 {
            report.appliedTwice += 1
            report.counts.problems.append("to-do \(marker) created \(records.count) times")
        }
        for (action, count) in view.refusals.sorted(by: { $0.key < $1.key }) {
            report.refusals += count
            report.counts.problems.append("Markbook refused \(count) \(action) request(s)")
        }

        var createMarkers: [Kind: Set<String>] = [:]
        var resultWrites: [Int: [Write]] = [:]
        var contentWrites: [Int: [Write]] = [:]
        var completions: [Int: [Bool]] = [:]
        for outcome in outcomes {
            let label = "op \(outcome.index) \(outcome.kind.rawValue)"
            if let untyped = outcome.untypedError {
                report.counts.problems.append("\(label): untyped error \(untyped)")
                continue
            }
            if outcome.kind.isIdempotent { report.counts.idempotentCalls += 1 }
            if let error = outcome.error {
                report.counts.failedByCode[error.code.rawValue, default: 0] += 1
                if outcome.kind.isIdempotent {
                    report.counts.idempotentFailures["\(outcome.kind.rawValue)/\(error.code.rawValue)", default: 0] += 1
                }
                if let problem = ChaosSoakTests.checkCode(error, isIdempotent: outcome.kind.isIdempotent) {
                    report.counts.problems.append("\(label): \(problem)")
                }
            } else {
                report.counts.succeeded[outcome.kind, default: 0] += 1
                if outcome.kind.isIdempotent { report.counts.idempotentSucceeded += 1 }
            }
            let write = Write(
                index: outcome.index,
                value: outcome.value,
                succeeded: outcome.error == nil,
                started: outcome.started,
                ended: outcome.ended
            )
            switch outcome.kind {
            case .createStudent, .createTodo:
                createMarkers[outcome.kind, default: []].insert(outcome.value)
                let keys =
                    outcome.kind == .createStudent
                    ? studentsByMarker[outcome.value, default: []].map(\.key)
                    : todosByMarker[outcome.value, default: []].map(\.id)
                if let problem = checkCreate(outcome, appliedAs: keys, report: &report) {
                    report.counts.problems.append("\(label): \(problem)")
                }
            case .putResult: resultWrites[outcome.target, default: []].append(write)
            case .updateTodo: contentWrites[outcome.target, default: []].append(write)
            case .completeTodo: completions[outcome.target, default: []].append(outcome.error == nil)
            case .readMarkbook, .listTodos: break
            }
        }

        // No record that no call made.
        for marker in studentsByMarker.keys where !createMarkers[.createStudent, default: []].contains(marker) {
            report.counts.problems.append("student \(marker) was created by no call")
        }
        for todo in newTodos {
            if !createMarkers[.createTodo, default: []].contains(todo.title) {
                report.counts.problems.append("to-do \(todo.id) (\(todo.title)) was created by no call")
            } else if todo.parentID != fixture.createsListID {
                report.counts.problems.append(
                    "to-do \(todo.title) is in list \(todo.parentID), not the creates list"
                )
            }
            if todo.completed {
                report.counts.problems.append("created to-do \(todo.title) was completed by no call")
            }
        }

        // Every value is one a call wrote, and could have been the last.
        for (slot, final) in view.finalResults.enumerated() {
            let initial = slot < view.initialResults.count ? view.initialResults[slot] : nil
            if let problem = lastWriter(final: final, initial: initial, writes: resultWrites[slot, default: []]) {
                let place = fixture.slots.indices.contains(slot) ? fixture.slots[slot] : nil
                report.counts.problems.append(
                    "result student \(place?.studentKey ?? 0) task \(place?.taskKey ?? 0): \(problem)"
                )
            }
        }
        let todosNow = Dictionary(view.todos.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for id in fixture.baseTodoIDs {
            guard let todo = todosNow[id] else {
                report.counts.problems.append("to-do \(id) is gone")
                continue
            }
            let before = view.todosBefore[id]
            if let problem = lastWriter(
                final: todo.title,
                initial: before?.title,
                writes: contentWrites[id, default: []]
            ) {
                report.counts.problems.append("to-do \(id) content: \(problem)")
            }
            let calls = completions[id, default: []]
            if calls.contains(true), !todo.completed {
                report.counts.problems.append("to-do \(id) was completed successfully but is not completed")
            }
            if todo.completed, calls.isEmpty, before?.completed != true {
                report.counts.problems.append("to-do \(id) was completed by no call")
            }
        }
        return report
    }

    /// Checks one create against the records carrying its marker; counts `ambiguous` ones.
    private static func checkCreate(_ outcome: Outcome, appliedAs keys: [Int], report: inout Report) -> String? {
        guard let error = outcome.error else {
            return keys == [outcome.createdID ?? -1]
                ? nil : "succeeded with key \(outcome.createdID ?? -1) but the sandbox holds \(keys)"
        }
        if error.code == .ambiguous {
            report.ambiguousByKind[outcome.kind, default: 0] += 1
            report.counts.ambiguousApplied += min(keys.count, 1)
            return nil
        }
        // Only `ambiguous` may hide an applied write: any other failure must mean "not applied".
        return keys.isEmpty ? nil : "failed with \(error.code) but was applied \(keys.count) time(s)"
    }

    /// Whether `final` is a value some write could have left last; `nil` when it is, or why not.
    ///
    /// The write that left `final` must have succeeded or failed in a way that may still have
    /// applied it, and no successful write may have started after it ended (that one would have
    /// replaced it). The initial value may stay only when no write succeeded.
    static func lastWriter(final: String?, initial: String?, writes: [Write]) -> String? {
        if let final, let writer = writes.first(where: { $0.value == final }) {
            if let later = writes.first(where: { $0.succeeded && $0.started > writer.ended }) {
                return "holds \(final) from op \(writer.index), but op \(later.index) succeeded after it"
            }
            return nil
        }
        guard final == initial else {
            return "holds \(final ?? "nothing"), which no call wrote"
        }
        if let success = writes.first(where: \.succeeded) {
            return "still holds its first value although op \(success.index) succeeded"
        }
        return nil
    }
}
