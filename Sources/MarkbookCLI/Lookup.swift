import HTTPCore
import Markbook

/// The SDK's lookups, with hints in terms of commands: a typo in a key is `not_found` before
/// anything is written, and the hint says which command shows the keys.
enum Lookup {
    /// The student with `key` (see ``restating(sidOption:_:)`` for the hint).
    static func student(_ sheet: MarkbookSheet, _ key: Int, sidOption: Bool) throws -> MarkbookStudent {
        do {
            return try sheet.requireStudent(key: key)
        } catch let error as APIError {
            throw restated(error, sidOption: sidOption)
        }
    }

    /// The class with `key`; the SDK's hint lists the markbook's classes.
    static func schoolClass(_ sheet: MarkbookSheet, _ key: Int) throws -> MarkbookClass {
        try sheet.requireClass(key: key)
    }

    /// Runs an SDK call that looks students up first. A student it does not find gets a hint
    /// naming the way to reach a deleted one: `--sid` where the command has it (`sidOption`), else
    /// restoring them first.
    static func restating<Value>(sidOption: Bool, _ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch let error as APIError {
            throw restated(error, sidOption: sidOption)
        }
    }

    private static func restated(_ error: APIError, sidOption: Bool) -> APIError {
        guard let missing = error.cause as? MarkbookItemNotFound, missing.kind == .student else { return error }
        let deleted =
            sidOption
            ? "A deleted student is not listed: pass --sid to name them."
            : "A deleted student is not listed: restore them first with "
                + "'markbook student move \(missing.markbookKey) \(missing.key) --sid SID --class CLASS'."
        return error.withHint("See 'markbook show \(missing.markbookKey)'. \(deleted)")
    }

    /// Runs a create; when its answer was lost (`ambiguous`), the error says how to find out
    /// whether it happened: run `check`.
    static func creating<Created>(check: String, _ create: () async throws -> Created) async throws -> Created {
        do {
            return try await create()
        } catch let error as APIError where error.code == .ambiguous {
            throw error.withHint("It may or may not have been created: run '\(check)' before trying again.")
        }
    }
}
