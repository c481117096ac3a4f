import ArgumentParser
import CLISupport
import Foundation
import HTTPCore
import Markbook

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
                "\(file) is not a createmarkbook payload: \(JSONFileProblem.describe(error))",
                hint: "See 'markbook create --help' for the shape."
            )
        }
        try payload.validate()
        let created = try await Lookup.creating(check: "markbook list") { try await client.createMarkbook(payload) }
        try context.printRecord(created) {
            context.print(
                "Created markbook \(created.key) \"\(created.name)\": \(created.classCount) classes, "
                    + "\(created.studentCount) students, shared with \(created.shareCount)."
            )
            if created.wasRenamed {
                context.note("\"\(created.requestedName)\" was taken, so Markbook named it \"\(created.name)\".")
            }
        }
    }
}
