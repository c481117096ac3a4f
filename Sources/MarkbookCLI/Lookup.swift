import ArgumentParser
import CLISupport
import Foundation
import HTTPCore
import Markbook

/// Lookups the write commands make first, so a typo in a key is `not_found` before anything is
/// written, and the `sid` and task name sent always belong to the keys.
enum Lookup {
    /// The student with `key`. A deleted student is not listed; the hint says how to reach one:
    /// with `--sid` where the command has it (`sidOption`), else by restoring them first.
    static func student(_ sheet: MarkbookSheet, _ key: Int, sidOption: Bool) throws -> MarkbookStudent {
        guard let student = sheet.student(key: key) else {
            let deleted =
                sidOption
                ? "A deleted student is not listed: pass --sid to name them."
                : "A deleted student is not listed: restore them first with "
                    + "'markbook student move \(sheet.key) \(key) --sid SID --class CLASS'."
            throw APIError.notFound(
                APIError.Details(
                    message: "Markbook \(sheet.key) lists no student \(key).",
                    hint: "See 'markbook show \(sheet.key)'. \(deleted)"
                )
            )
        }
        return student
    }

    static func task(_ sheet: MarkbookSheet, _ key: Int) throws -> MarkbookTask {
        try found(sheet.task(key: key), "task", key, in: sheet, listing: "Tasks", sheet.tasks.map { ($0.key, $0.name) })
    }

    static func schoolClass(_ sheet: MarkbookSheet, _ key: Int) throws -> MarkbookClass {
        try found(
            sheet.markbookClass(key: key),
            "class",
            key,
            in: sheet,
            listing: "Classes",
            sheet.classes.map { ($0.key, $0.name) }
        )
    }

    /// `item`, or a not-found error that lists what the markbook has instead (`KEY NAME, …`).
    private static func found<Item>(
        _ item: Item?,
        _ noun: String,
        _ key: Int,
        in sheet: MarkbookSheet,
        listing heading: String,
        _ choices: [(key: Int, name: String)]
    ) throws -> Item {
        guard let item else {
            throw APIError.notFound(
                APIError.Details(
                    message: "Markbook \(sheet.key) has no \(noun) \(key).",
                    hint: "\(heading): \(choices.map { "\($0.key) \($0.name)" }.joined(separator: ", "))."
                )
            )
        }
        return item
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
