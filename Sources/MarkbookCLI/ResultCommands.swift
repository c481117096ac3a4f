import ArgumentParser
import CLISupport
import Foundation
import HTTPCore
import Markbook

/// `markbook result …`.
struct ResultCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "result",
        abstract: "Change results.",
        subcommands: [ResultSetCommand.self]
    )
}

/// `markbook result set KEY --student S --task T --result R`.
struct ResultSetCommand: MarkbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set one student's result for one task.",
        discussion: """
            The student's id and the task's name are looked up and sent with the keys, so a mark can \
            only land on the student and task named. A result is a plain decimal number (42, 42.5, -1) \
            with at most 6 decimal places, written in its shortest form; text such as a grade needs \
            --text, and text that only looks like a number (1e3, NaN, 0x10, 12,5) is always refused. \
            Numbers outside 0…maximum are refused unless --allow-out-of-range (write a negative one \
            with =, as --result=-1, or it reads as an option); an empty --result "" clears the result. \
            These are the rules 'markbook import' applies.
            """
    )

    @ParentCommand var tool: MarkbookTool

    @OptionGroup var markbook: MarkbookKeyArgument

    @Option(
        help: ArgumentHelp("The student's key (see 'markbook show').", valueName: "key"),
        transform: MarkbookArgument.key
    )
    var student: Int

    @Option(
        help: ArgumentHelp("The task's key (see 'markbook show').", valueName: "key"),
        transform: MarkbookArgument.key
    )
    var task: Int

    @Option(help: ArgumentHelp("The result, e.g. 42.5; \"\" clears it.", valueName: "result"))
    var result: String

    @Flag(help: "Accept a number below 0 or above the task's maximum.")
    var allowOutOfRange = false

    @Flag(help: "Store --result as text (e.g. a grade such as A) instead of requiring a number.")
    var text = false

    func validate() throws {
        if result.trimmingCharacters(in: .whitespaces).isEmpty {
            for (given, flag) in [(text, "--text"), (allowOutOfRange, "--allow-out-of-range")] where given {
                throw ValidationError("--result \"\" clears the result; \(flag) cannot be used with it.")
            }
        }
        try MarkbookArgument.checkResult(result, allowsText: text)
    }

    private struct Output: Encodable {
        var markbookKey: Int
        var studentKey: Int
        var taskKey: Int
        var previous: Nullable<String>
        var result: String
    }

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let rules = MarkbookResultRules(allowsOutOfRange: allowOutOfRange, allowsText: text)
        let change: MarkbookResultChange
        do {
            change = try await Lookup.restating(sidOption: false) {
                try await client.setResult(
                    markbookKey: markbook.key,
                    studentKey: student,
                    taskKey: task,
                    to: result,
                    rules: rules
                )
            }
        } catch let error as APIError {
            guard case .outOfRange? = error.cause as? MarkbookValueProblem else { throw error }
            throw error.withHint("Check the mark, or pass --allow-out-of-range if it is meant.")
        }
        let written = change.result
        try context.printRecord(
            Output(
                markbookKey: markbook.key,
                studentKey: change.student.key,
                taskKey: change.task.key,
                previous: Nullable(change.previous?.raw),
                result: written
            )
        ) {
            let before = change.previous.map { $0.rounded } ?? "-"
            let after = written.isEmpty ? "-" : written
            context.print(
                "\(change.student.sortName) · \(change.task.name) (\(change.task.key)): \(before) -> \(after) /\(change.task.maximum)"
            )
        }
    }
}
