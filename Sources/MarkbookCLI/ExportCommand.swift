import ArgumentParser
import CLISupport
import Foundation
import HTTPCore
import Markbook

/// `markbook export KEY [--format csv|tsv|json] [--output FILE]`: the students × tasks grid.
struct ExportCommand: MarkbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a markbook's results as a students × tasks grid for a spreadsheet.",
        discussion: """
            The first row is the header: sid, family name, given name, preferred name, class, then \
            one column per task, headed by its name. The \
            second row holds each task's maximum, with "maximum" in the sid column. Results are \
            written in their shortest form; an empty cell is no result. Edit the file and bring it \
            back with 'markbook import'.

            CSV (the default) and TSV are UTF-8, quoted only where needed. A file written with \
            --output starts with a UTF-8 byte order mark and ends its lines with CRLF, so Excel and \
            Numbers open it directly; on standard output there is no byte order mark and lines end \
            with LF. --format json writes the tasks and each student's results by task. --output \
            writes the file whole or not at all, and keeps a file already there unless --force; \
            a device or a named pipe is written in place, and a symbolic link is followed.

            Examples:
              markbook --sandbox export 1000001
              markbook --sandbox export 1000001 --output 10MAT.csv
              markbook --sandbox export 1000001 --format tsv > 10MAT.tsv
              markbook --sandbox export 1000001 --format json
            """
    )

    @ParentCommand var tool: MarkbookTool

    @OptionGroup var markbook: MarkbookKeyArgument

    @Option(
        name: [.customShort("o"), .long],
        help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file")
    )
    var output: String?

    @Flag(help: "With --output: replace a file already there.")
    var force = false

    func validate() throws {
        if let output, output.isEmpty { throw ValidationError("--output needs a file name.") }
        if force, output == nil { throw ValidationError("--force only applies to --output.") }
    }

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let format = try GridFormat.forExport(context.outputFormat)
        if context.fields != nil {
            throw ValidationError("markbook export writes every column; --fields does not apply.")
        }
        // Looked at before the markbook is fetched, so a path that cannot be written costs nothing.
        let destination = try output.map { try FileDestination(path: $0, replacing: force) }
        let sheet = try await client.getMarkbook(key: markbook.key)
        let data: Data
        if let delimited = format.delimited {
            let table = MarkbookGrid(sheet: sheet).table()
            guard let destination else {
                // One record per line, LF-terminated, as other tools on a pipe expect.
                for row in table { context.print(String(delimited.string([row]).dropLast())) }
                return
            }
            data = delimited.data(table, byteOrderMark: true)
            try FileWriter.save(data, to: destination)
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            data = try encoder.encode(GridDocument(sheet: sheet))
            guard let destination else {
                context.print(String(decoding: data, as: UTF8.self))
                return
            }
            try FileWriter.save(data + Data("\n".utf8), to: destination)
        }
        let students = sheet.students.count
        let tasks = sheet.tasks.count
        context.note(
            "Wrote \(students) student\(students == 1 ? "" : "s") × \(tasks) task\(tasks == 1 ? "" : "s") of "
                + "\(sheet.name) to \(output ?? "-")."
        )
    }
}
