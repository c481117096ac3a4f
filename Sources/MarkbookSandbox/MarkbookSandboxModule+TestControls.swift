import APISandbox
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

extension MarkbookSandboxModule {
    /// A snapshot of the counters.
    public func counters() -> Counters {
        state.withLockedValue { $0.counters }
    }

    /// Ends every session on the server side, as a server restart or a timeout would.
    public func expireSessions() {
        state.withLockedValue { $0.world.sessions = [:] }
    }

    /// Restores the seed and the options given at creation, and forgets sessions, the backup and
    /// the counters (but not which session values were handed out). With a state file the seed
    /// is saved to it too.
    ///
    /// - Throws: ``APISandbox/SandboxStateFileError`` when the state file cannot be written; the
    ///   data is then left as it was.
    public func reset() throws {
        let world = initialWorld
        let options = initialOptions
        let now = now()
        try state.withLockedValue { state in
            try sharingSavedWorld(&state) { $0.world = world }
            state = State(world: world, options: options, now: now, issuedSessionValues: state.issuedSessionValues)
        }
    }

    /// Replaces the backup mode and result-write faults while the sandbox runs; the count of
    /// successful writes that ``MarkbookSandboxOptions/ResultWriteFaults/failAfterWrites`` looks
    /// at starts again from zero. ``reset()`` restores the options given at creation.
    public func setOptions(_ options: MarkbookSandboxOptions) {
        let now = now()
        state.withLockedValue { $0.setOptions(options, now: now) }
    }

    /// A student as stored, deleted or not; `nil` when the markbook or student does not exist.
    public func student(markbookKey: Int, studentKey: Int) -> StudentRecord? {
        state.withLockedValue { state in
            guard let index = state.world.markbookIndex(markbookKey),
                let student = state.world.markbooks[index].students.first(where: { $0.key == studentKey })
            else { return nil }
            return Self.record(student)
        }
    }

    static func record(_ student: SandboxWorld.Student) -> StudentRecord {
        StudentRecord(
            key: student.key,
            sid: student.sid,
            familyName: student.familyName,
            givenName: student.givenName,
            preferredName: student.preferredName,
            gender: student.gender,
            classKey: student.classKey,
            isDeleted: student.deleted
        )
    }

    /// Every student of a markbook as stored, deleted ones included, in the order they were
    /// added; empty when the markbook does not exist. Tests count records here to prove a create
    /// was applied once, whatever the client was told.
    public func students(markbookKey: Int) -> [StudentRecord] {
        state.withLockedValue { state in
            guard let index = state.world.markbookIndex(markbookKey) else { return [] }
            return state.world.markbooks[index].students.map(Self.record)
        }
    }

    /// A stored raw result text, or `nil` when there is none.
    public func result(markbookKey: Int, studentKey: Int, taskKey: Int) -> String? {
        state.withLockedValue { state in
            state.world.markbookIndex(markbookKey).flatMap { state.world.markbooks[$0].results[studentKey]?[taskKey] }
        }
    }

    /// The names of every markbook, in key order.
    public func markbookNames() -> [String] {
        state.withLockedValue { $0.world.markbooks.sorted { $0.key < $1.key }.map(\.name) }
    }

    /// The class names of a markbook.
    public func classNames(markbookKey: Int) -> [String] {
        state.withLockedValue { state in
            state.world.markbookIndex(markbookKey).map { state.world.markbooks[$0].classes.map(\.name) } ?? []
        }
    }

    /// The session values handed out so far, for tests that check none is ever shown.
    public func issuedSessionValues() -> [String] {
        state.withLockedValue { $0.issuedSessionValues }
    }
}
