import ArgumentParser
import CLISupport
import Foundation
import HTTPCore
import Markbook

/// `markbook list`: the school's markbooks.
struct ListCommand: MarkbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the school's markbooks.",
        discussion: """
            Examples:
              markbook --sandbox list
              markbook --sandbox list --format csv --fields key,name,year
            """
    )

    @ParentCommand var tool: MarkbookTool

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let markbooks = try await client.markbookList().sorted { $0.key < $1.key }
        try context.printList(markbooks) {
            var table = TextTable(columns: [
                .init("KEY", alignment: .right), .init("NAME"), .init("YEAR"), .init("COURSE"), .init("OWNER"),
            ])
            for markbook in markbooks {
                table.append([String(markbook.key), markbook.name, markbook.year, markbook.course, markbook.owner])
            }
            context.print(table)
        }
    }
}

/// `markbook users`: the school's users, whose keys own and share markbooks.
struct UsersCommand: MarkbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "List the school's users.",
        discussion: """
            Examples:
              markbook --sandbox users
              markbook --sandbox users --format tsv --fields key,loginID
            """
    )

    @ParentCommand var tool: MarkbookTool

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let users = try await client.userList()
        try context.printList(users) {
            var table = TextTable(columns: [
                .init("KEY", alignment: .right), .init("NAME"), .init("LOGIN"), .init("EMAIL"),
            ])
            for user in users {
                table.append([String(user.key), user.name, user.loginID, user.email])
            }
            context.print(table)
        }
    }
}

/// `markbook show KEY [--alt] [--raw]`: a markbook as a students × tasks grid.
struct ShowCommand: MarkbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a markbook: its tasks, and each student's results as a grid.",
        discussion: "Columns are task keys (listed above the grid); '-' is no result."
    )

    @ParentCommand var tool: MarkbookTool

    @OptionGroup var markbook: MarkbookKeyArgument

    @Flag(help: "Fetch with getmarkbookalt (results as a flat list); the output is the same.")
    var alt = false

    @Flag(help: "Show raw results instead of results rounded to each task's decimal places.")
    var raw = false

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let sheet =
            alt ? try await client.getMarkbookAlt(key: markbook.key) : try await client.getMarkbook(key: markbook.key)
        try context.printRecord(SheetJSON(sheet)) {
            context.print(Self.heading(sheet))
            if !sheet.classes.isEmpty {
                context.print("Classes: " + sheet.classes.map(Self.describe).joined(separator: " · "))
            }
            context.print()
            guard !sheet.tasks.isEmpty else {
                context.print("No tasks yet.")
                return
            }
            var tasks = TextTable(columns: [
                .init("TASK", alignment: .right), .init("NAME"), .init("MAX", alignment: .right),
                .init("DP", alignment: .right),
            ])
            for task in sheet.tasks {
                tasks.append([String(task.key), task.name, String(task.maximum), String(task.decimalPlaces)])
            }
            context.print(tasks)
            context.print()
            let students = sheet.students.sorted(by: Self.studentOrder)
            guard !students.isEmpty else {
                context.print("No students.")
                return
            }
            context.print(
                Self.grid(students, columnKeys: sheet.tasks.map(\.key)) { student, taskKey in
                    sheet.result(studentKey: student.key, taskKey: taskKey).map { raw ? $0.raw : $0.rounded }
                }
            )
        }
    }

    /// The students × columns grid of `show` and `outcomes`: each student's key, name, id and
    /// class, then one cell per column key (`-` where `cell` has nothing).
    static func grid(
        _ students: [MarkbookStudent],
        columnKeys: [Int],
        cell: (MarkbookStudent, Int) -> String?
    ) -> TextTable {
        var grid = TextTable(
            columns: [.init("KEY", alignment: .right), .init("STUDENT"), .init("SID"), .init("CLASS")]
                + columnKeys.map { .init(String($0), alignment: .right) }
        )
        for student in students {
            grid.append(
                [String(student.key), student.sortName, student.studentID, student.className]
                    + columnKeys.map { cell(student, $0) ?? "-" }
            )
        }
        return grid
    }

    static func studentOrder(_ first: MarkbookStudent, _ second: MarkbookStudent) -> Bool {
        let firstName = first.sortName.lowercased()
        let secondName = second.sortName.lowercased()
        return firstName == secondName ? first.key < second.key : firstName < secondName
    }

    static func heading(_ sheet: MarkbookSheet) -> String {
        ["\(sheet.name) (\(sheet.key))", sheet.year, sheet.course].filter { !$0.isEmpty }.joined(separator: " · ")
    }

    static func describe(_ item: MarkbookClass) -> String {
        item.teacherName.isEmpty ? "\(item.name) [\(item.key)]" : "\(item.name) [\(item.key)] \(item.teacherName)"
    }
}

/// `markbook outcomes KEY [--alt]`: outcomes and each student's levels as a grid.
struct OutcomesCommand: MarkbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "outcomes",
        abstract: "Show a markbook's outcomes and each student's level in them.",
        discussion: "Columns are outcome keys (listed above the grid); '-' is not assessed."
    )

    @ParentCommand var tool: MarkbookTool

    @OptionGroup var markbook: MarkbookKeyArgument

    @Flag(help: "Fetch with getoutcomesalt (levels as a flat list); the output is the same.")
    var alt = false

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let outcomes =
            alt ? try await client.getOutcomesAlt(key: markbook.key) : try await client.getOutcomes(key: markbook.key)
        try context.printRecord(OutcomesJSON(outcomes)) {
            guard !outcomes.outcomes.isEmpty else {
                context.print("Markbook \(markbook.key) has no outcomes.")
                return
            }
            var list = TextTable(columns: [
                .init("OUTCOME", alignment: .right), .init("CODE"), .init("NAME"), .init("TASKS"),
            ])
            for outcome in outcomes.outcomes {
                list.append([
                    String(outcome.key), outcome.code.isEmpty ? "-" : outcome.code, outcome.name,
                    outcome.taskKeys.map(String.init).joined(separator: ", "),
                ])
            }
            context.print(list)
            context.print()
            let students = outcomes.students.sorted(by: ShowCommand.studentOrder)
            context.print(
                ShowCommand.grid(students, columnKeys: outcomes.outcomes.map(\.key)) { student, outcomeKey in
                    outcomes.level(studentKey: student.key, outcomeKey: outcomeKey)?.text
                }
            )
        }
    }
}

// MARK: JSON shapes

/// `show --json`: the markbook with each student's results inline, numbers where they parse.
struct SheetJSON: Encodable {
    struct Result: Encodable {
        var taskKey: Int
        var raw: String
        var rounded: String
        var value: Nullable<Double>
    }

    var key: Int
    var name: String
    var year: String
    var course: String
    var ownerKey: Int
    var shareList: [Int]
    var classes: [MarkbookClass]
    var tasks: [MarkbookTask]
    var students: [StudentJSON<Result>]

    init(_ sheet: MarkbookSheet) {
        key = sheet.key
        name = sheet.name
        year = sheet.year
        course = sheet.course
        ownerKey = sheet.ownerKey
        shareList = sheet.shareList
        classes = sheet.classes
        tasks = sheet.tasks
        students = sheet.students.sorted(by: ShowCommand.studentOrder).map { student in
            StudentJSON(
                student: student,
                entriesKey: .results,
                entries: sheet.tasks.compactMap { task in
                    sheet.result(studentKey: student.key, taskKey: task.key).map {
                        Result(taskKey: task.key, raw: $0.raw, rounded: $0.rounded, value: Nullable($0.rawValue))
                    }
                }
            )
        }
    }
}

/// `outcomes --json`: the outcomes with each student's levels inline.
struct OutcomesJSON: Encodable {
    struct Level: Encodable {
        var outcomeKey: Int
        var level: String
        var value: Nullable<Double>
    }

    var markbookKey: Int
    var classes: [MarkbookClass]
    var outcomes: [MarkbookOutcome]
    var students: [StudentJSON<Level>]

    init(_ outcomes: MarkbookOutcomes) {
        markbookKey = outcomes.markbookKey
        classes = outcomes.classes
        self.outcomes = outcomes.outcomes
        students = outcomes.students.sorted(by: ShowCommand.studentOrder).map { student in
            StudentJSON(
                student: student,
                entriesKey: .levels,
                entries: outcomes.outcomes.compactMap { outcome in
                    outcomes.level(studentKey: student.key, outcomeKey: outcome.key).map {
                        Level(outcomeKey: outcome.key, level: $0.text, value: Nullable($0.value))
                    }
                }
            )
        }
    }
}

/// A student as `show --json` and `outcomes --json` print it: the SDK's student fields, then that
/// command's own list (`results` or `levels`).
struct StudentJSON<Entry: Encodable>: Encodable {
    enum EntriesKey: String, CodingKey {
        case results, levels
    }

    var student: MarkbookStudent
    var entriesKey: EntriesKey
    var entries: [Entry]

    func encode(to encoder: any Encoder) throws {
        try student.encode(to: encoder)
        var container = encoder.container(keyedBy: EntriesKey.self)
        try container.encode(entries, forKey: entriesKey)
    }
}
