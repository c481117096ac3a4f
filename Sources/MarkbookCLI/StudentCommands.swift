import ArgumentParser
import CLISupport
import Foundation
import HTTPCore
import Markbook

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

    @OptionGroup var markbook: MarkbookKeyArgument

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

    @Option(
        name: .customLong("class"),
        help: ArgumentHelp("The class's key (see 'markbook show').", valueName: "key"),
        transform: MarkbookArgument.key
    )
    var classKey: Int

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let studentKey = try await Lookup.creating(check: "markbook show \(markbook.key)") {
            try await client.createStudent(
                markbookKey: markbook.key,
                sid: sid,
                familyName: family,
                givenName: given,
                preferredName: preferred,
                gender: gender,
                classKey: classKey
            )
        }
        try context.printRecord(StudentChange(markbookKey: markbook.key, studentKey: studentKey)) {
            context.print(
                "Created student \(studentKey): \(family), \(preferred.isEmpty ? given : preferred) (\(sid))."
            )
        }
    }
}

/// `markbook student update KEY STUDENT --gender … [--family …] [--given …] [--preferred …]`.
struct StudentUpdateCommand: OneStudentCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change a student's names and gender.",
        discussion: """
            The API replaces every name at once, so names not given are sent unchanged. The API does \
            not report gender, so --gender is always required.
            """
    )

    @ParentCommand var tool: MarkbookTool

    @OptionGroup var target: StudentArguments

    @Option(help: ArgumentHelp("New family name.", valueName: "name"))
    var family: String?

    @Option(help: ArgumentHelp("New given name.", valueName: "name"))
    var given: String?

    @Option(help: ArgumentHelp("New preferred name (\"\" removes it).", valueName: "name"))
    var preferred: String?

    @Option(help: ArgumentHelp("male, female or other.", valueName: "gender"))
    var gender: Gender

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let update = MarkbookStudentUpdate(
            gender: gender,
            familyName: family,
            givenName: given,
            preferredName: preferred
        )
        let updated = try await Lookup.restating(sidOption: false) {
            try await client.updateStudent(markbookKey: key, studentKey: student, update)
        }
        try context.printRecord(updated) {
            context.print("Updated student \(updated.key): \(updated.sortName) (\(updated.studentID)).")
        }
    }
}

/// `markbook student move KEY STUDENT --class C [--sid S]`: also restores a deleted student.
struct StudentMoveCommand: OneStudentCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move a student to another class; this also restores a deleted student.",
        discussion: "A deleted student is not listed, so restoring one needs --sid."
    )

    @ParentCommand var tool: MarkbookTool

    @OptionGroup var target: StudentArguments

    @Option(
        name: .customLong("class"),
        help: ArgumentHelp("The class's key.", valueName: "key"),
        transform: MarkbookArgument.key
    )
    var classKey: Int

    @Option(help: ArgumentHelp("The student's id; needed for a deleted student.", valueName: "sid"))
    var sid: String?

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let sheet = try await client.getMarkbook(key: key)
        let target = try Lookup.schoolClass(sheet, classKey)
        let studentID = try sid ?? Lookup.student(sheet, student, sidOption: true).studentID
        try await client.updateStudentClass(markbookKey: key, studentKey: student, sid: studentID, classKey: classKey)
        try context.printRecord(StudentChange(markbookKey: key, studentKey: student, classKey: classKey)) {
            context.print("Student \(student) (\(studentID)) is in \(target.name) [\(classKey)].")
        }
    }
}

/// `markbook student delete KEY STUDENT [--sid S]`: a soft delete.
struct StudentDeleteCommand: OneStudentCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a student (softly: 'student move' restores them with their results)."
    )

    @ParentCommand var tool: MarkbookTool

    @OptionGroup var target: StudentArguments

    @Option(help: ArgumentHelp("The student's id (looked up when not given).", valueName: "sid"))
    var sid: String?

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let listed =
            sid == nil ? try Lookup.student(try await client.getMarkbook(key: key), student, sidOption: true) : nil
        let studentID = sid ?? listed?.studentID ?? ""
        try await client.deleteStudent(markbookKey: key, studentKey: student, sid: studentID)
        try context.printRecord(StudentChange(markbookKey: key, studentKey: student, sid: studentID)) {
            let name = listed.map { "\($0.sortName) " } ?? ""
            context.print("Deleted student \(student): \(name)(\(studentID)).")
            let classKey = listed.map { String($0.classKey) } ?? "CLASS"
            context.note("Restore with: markbook student move \(key) \(student) --sid \(studentID) --class \(classKey)")
        }
    }
}

/// A command about one student, named by its `KEY STUDENT` arguments.
protocol OneStudentCommand: MarkbookCommand {
    var target: StudentArguments { get }
}

extension OneStudentCommand {
    /// The markbook's key.
    var key: Int { target.markbook.key }
    /// The student's key.
    var student: Int { target.student }
}

/// The `KEY STUDENT` arguments of the commands about one student.
struct StudentArguments: ParsableArguments {
    @OptionGroup var markbook: MarkbookKeyArgument

    @Argument(help: ArgumentHelp("The student's key.", valueName: "student"), transform: MarkbookArgument.key)
    var student: Int
}

/// What `student create`, `move` and `delete` print with `--json`: the student, and the class or
/// id the command used where it used one.
private struct StudentChange: Encodable {
    var markbookKey: Int
    var studentKey: Int
    var classKey: Int?
    var sid: String?
}
