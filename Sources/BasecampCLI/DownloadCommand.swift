import ArgumentParser
import Basecamp
import CLISupport
import Foundation
import HTTPCore

/// `basecamp download`: fetches an upload's file, or any `download_url`, to a file or stdout.
struct DownloadCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download an upload's file, or any download_url, to a file or stdout.",
        discussion: """
            TARGET is an upload's id, or a download_url exactly as the API returned it (an upload's, an attachment's, a search result's; usually on Basecamp's storage host). The download_url is asked of the API (its path moved onto the API's address), which answers with a redirect to a signed storage URL; your token goes to the API only, never to storage. The API's answer is retried on network errors and 429, 502, 503 and 504 (once only with --no-retry); the storage fetch is not retried and follows no further redirect.
            The file goes to --output (default: the file's own name in the current directory; - for stdout). A file already there is kept unless --force. A file is written to NAME.partial first and renamed over NAME only when complete; a download that was interrupted resumes where it stopped (--no-resume starts over). A device or a FIFO (/dev/null, a named pipe, >(cmd)) is written in place as the bytes arrive; a symbolic link is followed, so the file it points at is written. A progress line is drawn on a terminal only.

            Exit codes: 0 saved; 64 (usage) the file exists and --force was not given; 1 (output_failed) the file cannot be written (a missing folder, a read-only place, a full disk), naming the path and the reason.

            Examples:
              basecamp --sandbox download 1069479913
              basecamp --sandbox download 1069479913 --output logo.png --force
              basecamp --sandbox download 1069479913 --output - | wc -c
            """
    )

    @ParentCommand var root: BasecampCommand

    @Argument(help: ArgumentHelp("An upload's id, or a download_url.", valueName: "target"))
    var target: String

    @Option(name: [.short, .long], help: ArgumentHelp("Where to write the file; - for stdout.", valueName: "path"))
    var output: String?

    @Flag(help: "Replace a file already at the path.")
    var force = false

    @Flag(help: "Start over instead of resuming an interrupted download.")
    var noResume = false

    func validate() throws {
        if output?.isEmpty == true { throw ValidationError("--output needs a path, or - for stdout.") }
        // An id names an upload only when it is a whole number above 0, as for every other command.
        if let id = Int64(target), id <= 0 {
            throw ValidationError("Basecamp ids are whole numbers above 0; TARGET was \(target).")
        }
    }

    func run(in context: CommandContext) async throws {
        // A path given is looked at before anything is fetched; one taken from the file's name
        // once that name is known.
        if let output { _ = try FileDestination(path: output, replacing: force) }
        try await OperationRunner(context: context, root: root).withAccount { account in
            let (url, name) = try await resolve(on: account)
            let destination = try FileDestination(path: output ?? Self.safeFileName(name), replacing: force)
            let result = try await account.basecamp.download(
                url,
                to: destination,
                resume: !noResume,
                progress: TransferProgressText.reporter("Downloading", name, to: context.progress)
            )
            context.progress.clear()
            guard destination.kind != .standardOutput else { return }
            let saved = Saved(file: destination.path, byteCount: result.byteCount, resumedFrom: result.resumedFrom)
            try context.printRecord(saved) {
                let resumed =
                    result.resumedFrom > 0 ? " (resumed at \(TransferProgressText.size(result.resumedFrom)))" : ""
                context.print("Saved \(destination.path): \(TransferProgressText.size(result.byteCount))\(resumed)")
            }
        }
    }

    /// What `--json` (or `--format`) prints for a saved file.
    private struct Saved: Encodable {
        var file: String
        var byteCount: Int64
        var resumedFrom: Int64
    }

    /// The download_url and a file name for the target.
    private func resolve(on account: AccountClient) async throws -> (url: String, name: String) {
        if let id = Int64(target) {
            let upload = try await account.uploads.get(uploadID: id)
            guard let url = upload.downloadURL else {
                throw APIError.apiError(APIError.Details(message: "Upload \(id) has no download_url."))
            }
            return (url, upload.filename ?? upload.title)
        }
        guard let url = URL(string: target), url.scheme != nil else {
            throw ValidationError("TARGET must be an upload's id or a download_url, not \"\(target.prefix(60))\".")
        }
        let last = url.lastPathComponent
        return (target, last.isEmpty || last == "/" ? "download" : last)
    }

    /// `name` without directories, so a server-chosen name cannot write outside the current
    /// directory.
    static func safeFileName(_ name: String) -> String {
        let last = (name as NSString).lastPathComponent
        // "-" would mean stdout.
        return ["", ".", "..", FileDestination.standardOutputPath].contains(last) ? "download" : last
    }
}
