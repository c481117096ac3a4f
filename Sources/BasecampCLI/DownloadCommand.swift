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
            TARGET is an upload's id, or a download_url exactly as the API returned it (an upload's, an attachment's, a search result's). Basecamp answers the download_url with a redirect to its storage; your token goes to Basecamp only, never to storage.
            The file goes to --output (default: the file's own name in the current directory; - for stdout). It is written to NAME.partial first and renamed when complete; a download that was interrupted resumes where it stopped (--no-resume starts over). A progress line is drawn on a terminal only.

            Examples:
              basecamp --sandbox download 1069479913
              basecamp --sandbox download 1069479913 --output - | wc -c
            """
    )

    @ParentCommand var root: BasecampCommand

    @Argument(help: ArgumentHelp("An upload's id, or a download_url.", valueName: "target"))
    var target: String

    @Option(name: [.short, .long], help: ArgumentHelp("Where to write the file; - for stdout.", valueName: "path"))
    var output: String?

    @Flag(help: "Start over instead of resuming an interrupted download.")
    var noResume = false

    func run(in context: CommandContext) async throws {
        try await OperationRunner(context: context, root: root).withAccount { account in
            let (url, name) = try await resolve(on: account)
            let toStdout = output == "-"
            let destination: URL
            if toStdout {
                destination = FileManager.default.temporaryDirectory
                    .appendingPathComponent("basecamp-download-\(UUID().uuidString)")
            } else {
                destination = URL(fileURLWithPath: output ?? Self.safeFileName(name))
            }
            let result = try await account.download(
                url,
                to: destination,
                resume: !noResume && !toStdout,
                progress: TransferProgressText.reporter("Downloading", name, to: context.progress)
            )
            context.progress.clear()
            if toStdout {
                defer { try? FileManager.default.removeItem(at: destination) }
                try Self.copyToStandardOutput(destination)
                return
            }
            let resumed = result.resumedFrom > 0 ? " (resumed at \(TransferProgressText.size(result.resumedFrom)))" : ""
            context.print("Saved \(destination.path): \(TransferProgressText.size(result.byteCount))\(resumed)")
        }
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
        return last.isEmpty || last == "." || last == ".." ? "download" : last
    }

    /// Streams the file to stdout in chunks, so a large file never sits in memory.
    private static func copyToStandardOutput(_ file: URL) throws {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: 256 * 1024), !chunk.isEmpty {
            try FileHandle.standardOutput.write(contentsOf: chunk)
        }
    }
}
