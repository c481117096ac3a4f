import ArgumentParser
import CLISupport
import Foundation
import HTTPCore
import Markbook

extension Gender: ExpressibleByArgument {}

/// Lookups the write commands make first, so a typo in a key is `not_found` before anything is
/// written, and the `sid` and task name sent always belong to the keys.
enum Lookup {
    static func student(_ sheet: MarkbookSheet, _ key: Int) throws -> MarkbookStudent {
        guard let student = sheet.student(key: key) else {
            throw APIError.notFound(
                APIError.Details(
                    message: "Markbook \(sheet.key) lists no student \(key).",
                    hint: "See 'markbook show \(sheet.key)'. A deleted student is not listed: pass --sid to name them."
                )
            )
        }
        return student
    }

    static func task(_ sheet: MarkbookSheet, _ key: Int) throws -> MarkbookTask {
        guard let task = sheet.task(key: key) else {
            throw APIError.notFound(
                APIError.Details(
                    message: "Markbook \(sheet.key) has no task \(key).",
                    hint: "Tasks: \(sheet.tasks.map { "\($0.key) \($0.name)" }.joined(separator: ", "))."
                )
            )
        }
        return task
    }

    static func schoolClass(_ sheet: MarkbookSheet, _ key: Int) throws -> MarkbookClass {
        guard let item = sheet.markbookClass(key: key) else {
            throw APIError.notFound(
                APIError.Details(
                    message: "Markbook \(sheet.key) has no class \(key).",
                    hint: "Classes: \(sheet.classes.map { "\($0.key) \($0.name)" }.joined(separator: ", "))."
                )
            )
        }
        return item
    }

    /// A create whose answer was lost: say how to find out whether it happened.
    static func explainAmbiguous(_ error: any Error, check: String) -> any Error {
        guard let error = error as? APIError, error.code == .ambiguous else { return error }
        return error.withHint("It may or may not have been created: run '\(check)' before trying again.")
    }
}

// MARK: result

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
            only land on the student and task named. Results outside 0…maximum are refused unless \
            --allow-out-of-range; an empty --result "" clears the result.
            """
    )

    @ParentCommand var tool: MarkbookTool

    @Argument(help: ArgumentHelp("The markbook's key.", valueName: "key"))
    var key: Int

    @Option(help: ArgumentHelp("The student's key (see 'markbook show').", valueName: "key"))
    var student: Int

    @Option(help: ArgumentHelp("The task's key (see 'markbook show').", valueName: "key"))
    var task: Int

    @Option(help: ArgumentHelp("The result, e.g. 42.5; \"\" clears it.", valueName: "result"))
    var result: String

    @Flag(help: "Accept a number below 0 or above the task's maximum.")
    var allowOutOfRange = false

    private struct Output: Encodable {
        var markbookKey: Int
        var studentKey: Int
        var taskKey: Int
        var previous: Nullable<String>
        var result: String
    }

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let sheet = try await client.getMarkbook(key: key)
        let student = try Lookup.student(sheet, student)
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
        if context.outputsJSON {
            try context.printJSON(
                Output(
                    markbookKey: key,
                    studentKey: student.key,
                    taskKey: task.key,
                    previous: Nullable(previous?.raw),
                    result: value
                )
            )
            return
        }
        let before = previous.map { $0.rounded } ?? "-"
        let after = value.isEmpty ? "-" : value
        context.print("\(student.sortName) · \(task.name) (\(task.key)): \(before) -> \(after) /\(task.maximum)")
    }
}

// MARK: student

/// `markbook student …`.
struct StudentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "student",
        abstract: "Create, update, move, delete or restore students.",
        subcommands: [
            StudentCreateCommand.self, StudentUpdateCommand.self, StudentMoveCommand.self, StudentDeleteCommand.self,
        ]
    )
}

/// `markbook student create KEY --sid … --family … --given … --gender … --class …`.
struct StudentCreateCommand: MarkbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Add a student to a class. Sent once: never retried after it may have arrived."
    )

    @ParentCommand var tool: MarkbookTool

    @Argument(help: ArgumentHelp("The markbook's key.", valueName: "key"))
    var key: Int

    @Option(help: ArgumentHelp("The school's student id.", valueName: "sid"))
    var sid: String

    @Option(help: ArgumentHelp("Family name.", valueName: "name"))
    var family: String

    @Option(help: ArgumentHelp("Given name.", valueName: "name"))
    var given: String

    @Option(help: ArgumentHelp("Preferred name.", valueName: "name"))
    var preferred = ""

    @Option(help: ArgumentHelp("male, female or other.", valueName: "gender"))
    var gender: Gender

    @Option(name: .customLong("class"), help: ArgumentHelp("The class's key (see 'markbook show').", valueName: "key"))
    var classKey: Int

    private struct Output: Encodable {
        var markbookKey: Int
        var studentKey: Int
    }

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let studentKey: Int
        do {
            studentKey = try await client.createStudent(
                markbookKey: key,
                sid: sid,
                familyName: family,
                givenName: given,
                preferredName: preferred,
                gender: gender,
                classKey: classKey
            )
        } catch {
            throw Lookup.explainAmbiguous(error, check: "markbook show \(key)")
        }
        if context.outputsJSON {
            try context.printJSON(Output(markbookKey: key, studentKey: studentKey))
            return
        }
        context.print("Created student \(studentKey): \(family), \(preferred.isEmpty ? given : preferred) (\(sid)).")
    }
}

/// `markbook student update KEY STUDENT --gender … [--family …] [--given …] [--preferred …]`.
struct StudentUpdateCommand: MarkbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change a student's names and gender.",
        discussion: """
            The API replaces every name at once, so names not given are sent unchanged. The API does \
            not report gender, so --gender is always required.
            """
    )

    @ParentCommand var tool: MarkbookTool

    @Argument(help: ArgumentHelp("The markbook's key.", valueName: "key"))
    var key: Int

    @Argument(help: ArgumentHelp("The student's key.", valueName: "student"))
    var student: Int

    @Option(help: ArgumentHelp("New family name.", valueName: "name"))
    var family: String?

    @Option(help: ArgumentHelp("New given name.", valueName: "name"))
    var given: String?

    @Option(help: ArgumentHelp("New preferred name (\"\" removes it).", valueName: "name"))
    var preferred: String?

    @Option(help: ArgumentHelp("male, female or other.", valueName: "gender"))
    var gender: Gender

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let current = try Lookup.student(try await client.getMarkbook(key: key), student)
        let updated = MarkbookStudent(
            key: current.key,
            studentID: current.studentID,
            familyName: family ?? current.familyName,
            givenName: given ?? current.givenName,
            preferredName: preferred ?? current.preferredName,
            classKey: current.classKey,
            className: current.className
        )
        try await client.updateStudent(
            markbookKey: key,
            studentKey: current.key,
            sid: current.studentID,
            familyName: updated.familyName,
            givenName: updated.givenName,
            preferredName: updated.preferredName,
            gender: gender
        )
        if context.outputsJSON {
            try context.printJSON(updated)
            return
        }
        context.print("Updated student \(current.key): \(updated.sortName) (\(current.studentID)).")
    }
}

/// `markbook student move KEY STUDENT --class C [--sid S]`: also restores a deleted student.
struct StudentMoveCommand: MarkbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move a student to another class; this also restores a deleted student.",
        discussion: "A deleted student is not listed, so restoring one needs --sid."
    )

    @ParentCommand var tool: MarkbookTool

    @Argument(help: ArgumentHelp("The markbook's key.", valueName: "key"))
    var key: Int

    @Argument(help: ArgumentHelp("The student's key.", valueName: "student"))
    var student: Int

    @Option(name: .customLong("class"), help: ArgumentHelp("The class's key.", valueName: "key"))
    var classKey: Int

    @Option(help: ArgumentHelp("The student's id; needed for a deleted student.", valueName: "sid"))
    var sid: String?

    private struct Output: Encodable {
        var markbookKey: Int
        var studentKey: Int
        var classKey: Int
    }

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let sheet = try await client.getMarkbook(key: key)
        let target = try Lookup.schoolClass(sheet, classKey)
        let studentID = try sid ?? Lookup.student(sheet, student).studentID
        try await client.updateStudentClass(markbookKey: key, studentKey: student, sid: studentID, classKey: classKey)
        if context.outputsJSON {
            try context.printJSON(Output(markbookKey: key, studentKey: student, classKey: classKey))
            return
        }
        context.print("Student \(student) (\(studentID)) is in \(target.name) [\(classKey)].")
    }
}

/// `markbook student delete KEY STUDENT [--sid S]`: a soft delete.
struct StudentDeleteCommand: MarkbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a student (softly: 'student move' restores them with their results)."
    )

    @ParentCommand var tool: MarkbookTool

    @Argument(help: ArgumentHelp("The markbook's key.", valueName: "key"))
    var key: Int

    @Argument(help: ArgumentHelp("The student's key.", valueName: "student"))
    var student: Int

    @Option(help: ArgumentHelp("The student's id (looked up when not given).", valueName: "sid"))
    var sid: String?

    private struct Output: Encodable {
        var markbookKey: Int
        var studentKey: Int
        var sid: String
    }

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let listed = sid == nil ? try Lookup.student(try await client.getMarkbook(key: key), student) : nil
        let studentID = sid ?? listed?.studentID ?? ""
        try await client.deleteStudent(markbookKey: key, studentKey: student, sid: studentID)
        if context.outputsJSON {
            try context.printJSON(Output(markbookKey: key, studentKey: student, sid: studentID))
            return
        }
        let name = listed.map { "\($0.sortName) " } ?? ""
        context.print("Deleted student \(student): \(name)(\(studentID)).")
        let classKey = listed.map { String($0.classKey) } ?? "CLASS"
        context.note("Restore with: markbook student move \(key) \(student) --sid \(studentID) --class \(classKey)")
    }
}

// MARK: class

/// `markbook class …`.
struct ClassCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "class",
        abstract: "Create classes.",
        subcommands: [ClassCreateCommand.self]
    )
}

/// `markbook class create KEY --name N [--teacher-given G] [--teacher-family F]`.
struct ClassCreateCommand: MarkbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Add a class (names are unique in a markbook). Sent once: never retried after it may have arrived."
    )

    @ParentCommand var tool: MarkbookTool

    @Argument(help: ArgumentHelp("The markbook's key.", valueName: "key"))
    var key: Int

    @Option(help: ArgumentHelp("The class name.", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("The teacher's title and given name, e.g. \"Ms Ada\".", valueName: "name"))
    var teacherGiven = ""

    @Option(help: ArgumentHelp("The teacher's family name.", valueName: "name"))
    var teacherFamily = ""

    private struct Output: Encodable {
        var markbookKey: Int
        var classKey: Int
        var name: String
    }

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let classKey: Int
        do {
            classKey = try await client.createClass(
                markbookKey: key,
                name: name,
                teacherFamilyName: teacherFamily,
                teacherGivenName: teacherGiven
            )
        } catch {
            throw Lookup.explainAmbiguous(error, check: "markbook show \(key)")
        }
        if context.outputsJSON {
            try context.printJSON(Output(markbookKey: key, classKey: classKey, name: name))
            return
        }
        context.print("Created class \(classKey): \(name).")
    }
}

// MARK: backup

/// `markbook backup …`.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Schedule a backup and fetch its URL the next day.",
        subcommands: [BackupScheduleCommand.self, BackupURLCommand.self]
    )
}

/// `markbook backup schedule MATCHING`.
struct BackupScheduleCommand: MarkbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "Schedule a backup of the markbooks whose names match; it is built overnight."
    )

    @ParentCommand var tool: MarkbookTool

    @Argument(help: ArgumentHelp("Part of the markbook names, at least 2 characters.", valueName: "matching"))
    var matching: String

    private struct Output: Encodable {
        var matching: String
        var scheduled: Bool
    }

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        try await client.scheduleBackup(matching: matching)
        if context.outputsJSON {
            try context.printJSON(Output(matching: matching, scheduled: true))
            return
        }
        context.print("Scheduled a backup of the markbooks matching \"\(matching)\".")
        context.note("It is built at about 1 AM: run 'markbook backup url' tomorrow.")
    }
}

/// `markbook backup url`.
struct BackupURLCommand: MarkbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "url",
        abstract: "Show the scheduled backup's URL, or why there is none yet."
    )

    @ParentCommand var tool: MarkbookTool

    private struct Output: Encodable {
        var status: String
        var rawStatus: String
        var url: Nullable<String>
    }

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let backup = try await client.getBackupURL()
        let status: String
        let text: String
        switch backup.status {
        case .okay:
            status = "okay"
            text = backup.url?.absoluteString ?? ""
        case .errorPending:
            status = "pending"
            text = "The backup is not built yet (it is built at about 1 AM): try again tomorrow."
        case .errorNoBackup:
            status = "noBackup"
            text = "No backup is scheduled: run 'markbook backup schedule MATCHING'."
        case .error(let reason):
            throw APIError.apiError(
                APIError.Details(
                    message: "Markbook refused getbackupurl: \(reason).",
                    rawStatus: backup.status.rawStatus
                )
            )
        }
        if context.outputsJSON {
            try context.printJSON(
                Output(status: status, rawStatus: backup.status.rawStatus, url: Nullable(backup.url?.absoluteString))
            )
            return
        }
        context.print(text)
        if backup.isReady { context.note("The zip is deleted about an hour after this URL is first returned.") }
    }
}

// MARK: create

/// `markbook create --file payload.json`.
struct CreateCommand: MarkbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a whole markbook from a createmarkbook payload file.",
        discussion: """
            The file is the API's own jsondata shape: markbookname, markbookyear, markbookcourse, \
            ownerkey, sharelist, classlist and studentlist (keys local to the file). A name already \
            in use gets -1, -2, … appended by the server. Sent once: never retried after it may have \
            arrived.
            """
    )

    @ParentCommand var tool: MarkbookTool

    @Option(help: ArgumentHelp("The payload file (JSON).", valueName: "file"))
    var file: String

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw ValidationError("Cannot read --file \(file).")
        }
        let payload: NewMarkbook
        do {
            payload = try JSONDecoder().decode(NewMarkbook.self, from: data)
        } catch {
            throw APIError.usage(
                "\(file) is not a createmarkbook payload: \(Self.describe(error))",
                hint: "See 'markbook create --help' for the shape."
            )
        }
        try payload.validate()
        let created: CreatedMarkbook
        do {
            created = try await client.createMarkbook(payload)
        } catch {
            throw Lookup.explainAmbiguous(error, check: "markbook list")
        }
        if context.outputsJSON {
            try context.printJSON(created)
            return
        }
        context.print(
            "Created markbook \(created.key) \"\(created.name)\": \(created.classCount) classes, "
                + "\(created.studentCount) students, shared with \(created.shareCount)."
        )
        if created.wasRenamed {
            context.note("\"\(created.requestedName)\" was taken, so Markbook named it \"\(created.name)\".")
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing."
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(path(context.codingPath)) has the wrong type."
        case DecodingError.dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not valid JSON." : "\(path(context.codingPath)) is invalid."
        default:
            return "it cannot be read."
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
    }
}
