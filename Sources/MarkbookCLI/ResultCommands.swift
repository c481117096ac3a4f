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
            only land on the student and task named. A result is a plain decimal number (42, 42.5, -1); \
            anything else (1e3, NaN, 0x10, 12,5) is refused unless --text says it is text, such as a \
            grade. Numbers outside 0…maximum are refused unless --allow-out-of-range; an empty \
            --result "" clears the result.
            """
    )

    @ParentCommand var tool: MarkbookTool

    @Argument(help: ArgumentHelp("The markbook's key.", valueName: "key"), transform: MarkbookArgument.key)
    var key: Int

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
        if !text { try MarkbookArgument.checkResult(result) }
    }

    private struct Output: Encodable {
        var markbookKey: Int
        var studentKey: Int
        var taskKey: Int
        var previous: Nullable<String>
        var result: String
    }

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let sheet = try await client.getMarkbook(key: key)
        let student = try Lookup.student(sheet, student, sidOption: false)
        let task = try Lookup.task(sheet, task)
        let value = result.trimmingCharacters(in: .whitespaces)
        if !allowOutOfRange, let number = MarkbookResult(raw: value, rounded: value).rawValue,
            number < 0 || number > Double(task.maximum)
        {
            throw APIError.usage(
                "\(value) is outside 0…\(task.maximum), the range of \(task.name).",
                hint: "Check the mark, or pass --allow-out-of-range if it is meant."
            )
        }
        let previous = sheet.result(studentKey: student.key, taskKey: task.key)
        try await client.putStudentResult(markbookKey: key, student: student, task: task, result: value)
        try context.printRecord(
            Output(
                markbookKey: key,
                studentKey: student.key,
                taskKey: task.key,
                previous: Nullable(previous?.raw),
                result: value
            )
        ) {
            let before = previous.map { $0.rounded } ?? "-"
            let after = value.isEmpty ? "-" : value
            context.print("\(student.sortName) · \(task.name) (\(task.key)): \(before) -> \(after) /\(task.maximum)")
        }
    }
}
