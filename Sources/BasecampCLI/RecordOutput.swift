import CLISupport
import Foundation
import HTTPCore

/// How the hand-written commands print the record they changed: one line for people, and for
/// `--json`/`--format` the same Swift-named JSON as the generated commands.
enum RecordOutput {
    static func print(_ record: some Encodable, in context: CommandContext, line: String) throws {
        guard context.outputsJSON else {
            context.print(line)
            return
        }
        try OutputFormatter(context: context).record(JSONValue(parsing: JSONEncoder().encode(record)))
    }
}
