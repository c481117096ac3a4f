import ArgumentParser
import CLISupport
import Foundation
import HTTPCore
import Markbook

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

    @OptionGroup var markbook: MarkbookKeyArgument

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
        let classKey = try await Lookup.creating(check: "markbook show \(markbook.key)") {
            try await client.createClass(
                markbookKey: markbook.key,
                name: name,
                teacherFamilyName: teacherFamily,
                teacherGivenName: teacherGiven
            )
        }
        try context.printRecord(Output(markbookKey: markbook.key, classKey: classKey, name: name)) {
            context.print("Created class \(classKey): \(name).")
        }
    }
}
