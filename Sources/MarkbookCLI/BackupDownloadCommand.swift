import ArgumentParser
import CLISupport
import Foundation
import HTTPCore
import Markbook

/// `markbook backup download [--output FILE]`: saves the ready backup's zip.
struct BackupDownloadCommand: MarkbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download the scheduled backup's zip once it is built.",
        discussion: """
            Asks for the backup's URL and, when the backup is ready, saves the zip under the name \
            the server gives it (or --output). The bytes go to a hidden temporary file beside the \
            target, which is renamed only once the whole zip has arrived and starts like a zip, so \
            the target never holds half a file or an error page. A file already at the target is \
            kept unless --force; a device or a named pipe (or - for standard output) gets the zip \
            once it is checked, and a symbolic link is followed. The URL works for about an hour \
            after it is first fetched: download at once.

            Exit codes: 0 saved; 75 (backup_pending) the backup is not built yet, try again \
            tomorrow; 11 (no_backup) none is scheduled, run 'markbook backup schedule MATCHING' first; \
            64 (usage) the target exists and --force was not given; 1 (output_failed) the target \
            cannot be written (a missing folder, a read-only place, a full disk).

            Examples:
              markbook backup download
              markbook backup download --output ~/Backups/markbooks.zip --force
              MARKBOOK_SANDBOX_BACKUP=ready markbook --sandbox backup download --output backup.zip
            """
    )

    /// The exit code when the backup is not built yet (`EX_TEMPFAIL`: try again later).
    static let pendingExitCode: Int32 = 75
    /// The exit code when there is no backup to download.
    static let noBackupExitCode: Int32 = 11

    @ParentCommand var tool: MarkbookTool

    @Option(
        name: [.customShort("o"), .long],
        help: ArgumentHelp(
            "Save the zip here, or in this directory under the server's file name (default: the current directory).",
            valueName: "file"
        )
    )
    var output: String?

    @Flag(help: "Replace a file already at the target.")
    var force = false

    func validate() throws {
        if let output, output.isEmpty { throw ValidationError("--output needs a file name.") }
    }

    private struct Output: Encodable {
        var path: String
        var bytes: Int
    }

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        // The current directory by default: the SDK saves under the server's file name there.
        let toStandardOutput = output == FileDestination.standardOutputPath
        let destination = URL(fileURLWithPath: output ?? FileManager.default.currentDirectoryPath)
        let report: @Sendable (TransferProgress) -> Void = { progress in
            let total = progress.total.map { " of \(Self.size(Int($0)))" } ?? ""
            context.progress.update("Downloading the backup: \(Self.size(Int(progress.completed)))\(total)")
        }
        // Ctrl-C cancels the download (CLIRunner) rather than killing the process, so the SDK
        // removes the zip's hidden staging file instead of leaving a truncated one behind.
        let saved: BackupDownload
        do {
            saved =
                toStandardOutput
                ? try await client.downloadBackup(to: .standardOutput, progress: report)
                : try await client.downloadBackup(to: destination, replacing: force, progress: report)
        } catch let unavailable as BackupUnavailable {
            throw Self.failure(unavailable)
        } catch let error as APIError {
            throw Self.restated(error)
        }
        guard !toStandardOutput else {
            return context.note("Wrote the backup (\(Self.size(saved.byteCount))) to standard output.")
        }
        try context.printRecord(Output(path: saved.file.path, bytes: saved.byteCount)) {
            context.print(saved.file.path)
            context.note("Saved the backup (\(Self.size(saved.byteCount))) to \(saved.file.path).")
        }
    }

    /// The SDK's hints in terms of this command's options and the other commands.
    static func restated(_ error: APIError) -> APIError {
        switch error.code {
        case .notFound:
            return error.withHint(
                "The URL works for about an hour after it is first fetched; schedule a new backup "
                    + "('markbook backup schedule MATCHING') and download it tomorrow."
            )
        case .apiError where error.details.rawStatus == nil && error.httpStatus == nil:
            return error.withHint("Run 'markbook backup url' to check the backup, and try again.")
        default:
            return error
        }
    }

    static func failure(_ unavailable: BackupUnavailable) -> CommandFailure {
        switch unavailable.reason {
        case .pending:
            return CommandFailure(
                code: unavailable.code,
                message: unavailable.message,
                hint: "Try again tomorrow; 'markbook backup url' shows the state.",
                exitCode: pendingExitCode,
                retryable: true
            )
        case .noBackup:
            return CommandFailure(
                code: unavailable.code,
                message: unavailable.message,
                hint: "Run 'markbook backup schedule MATCHING', then download it tomorrow.",
                exitCode: noBackupExitCode
            )
        }
    }

    /// `812 bytes`, `14.2 kB`, `3.1 MB`, `1.2 GB` (decimal units, as file managers show).
    static func size(_ bytes: Int) -> String {
        guard bytes >= 1000 else { return "\(bytes) bytes" }
        var value = Double(bytes) / 1000
        for unit in ["kB", "MB", "GB"] {
            if value < 1000 || unit == "GB" {
                return "\((value * 10).rounded() / 10) \(unit)"
            }
            value /= 1000
        }
        return "\(bytes) bytes"
    }
}
