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
            target, which is renamed only once the whole zip has arrived, so the target never holds \
            half a file. A file already at the target is kept unless --force; a device or a named \
            pipe gets the zip once it is checked, and a symbolic link is followed. The URL works for \
            about an hour after it is first fetched: download at once.

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
        help: ArgumentHelp("Save the zip here (default: the server's file name, in this directory).", valueName: "file")
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
        // Looked at before the URL is fetched: fetching it starts the hour it stays valid.
        if let output { _ = try FileDestination(path: output, replacing: force) }
        let url: URL
        do {
            url = try await client.readyBackupURL()
        } catch let unavailable as BackupUnavailable {
            throw Self.failure(unavailable)
        }
        let destination = try FileDestination(path: output ?? Self.defaultName(for: url), replacing: force)
        let name = destination.target.lastPathComponent
        context.progress.update("Downloading \(name)…")
        // Staged in a hidden file beside the target (for a device or a pipe, in the temporary
        // folder), checked, then put in place in one step.
        let staging = Self.stagingFile(for: destination)
        defer {
            // Nothing is resumed from a staging file, so a failed download leaves none of its files.
            let partial = Client.partialFile(for: staging)
            for file in [staging, partial, partial.appendingPathExtension("validator")] {
                try? FileManager.default.removeItem(at: file)
            }
        }
        let download = try await Self.fetch(url, to: staging, context: context) { progress in
            let total = progress.total.map { " of \(Self.size(Int($0)))" } ?? ""
            context.progress.update("Downloading \(name): \(Self.size(Int(progress.completed)))\(total)")
        }
        let byteCount = Int(download.byteCount)
        guard Self.isZip(fileAt: staging) else {
            throw APIError.apiError(
                APIError.Details(
                    message: "The backup URL answered with \(byteCount) bytes that are not a zip; nothing was saved.",
                    hint: "Run 'markbook backup url' to check the backup, and try again."
                )
            )
        }
        try FileWriter.move(staging, to: destination)
        guard destination.kind != .standardOutput else {
            return context.note("Wrote the backup (\(Self.size(byteCount))) to standard output.")
        }
        try context.printRecord(Output(path: destination.path, bytes: byteCount)) {
            context.print(destination.path)
            context.note("Saved the backup (\(Self.size(byteCount))) to \(destination.path).")
        }
    }

    /// Where the zip waits until it is checked: beside a file target, so it is renamed into place
    /// on the same file system; in the temporary folder for a stream.
    private static func stagingFile(for destination: FileDestination) -> URL {
        let folder =
            destination.isStream
            ? FileManager.default.temporaryDirectory : destination.target.deletingLastPathComponent()
        return folder.appending(
            path: ".\(destination.target.lastPathComponent).download-\(UUID().uuidString.prefix(8))"
        )
    }

    /// The zip's bytes, fetched without the session (the URL needs none), with the command's
    /// timeout, retries and `--verbose` log.
    private static func fetch(
        _ url: URL,
        to file: URL,
        context: CommandContext,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> FileDownload {
        let connection = try await context.connection()
        let downloader = try Client(configuration: connection.configuration, transport: connection.transport)
        let endpoint = Endpoint<Data>(
            .get,
            url.absoluteString,
            operation: OperationMetadata(name: "downloadBackup", service: "markbook", idempotent: true)
        )
        do {
            return try await downloader.download(endpoint, to: file, resume: false, progress: progress)
        } catch let error as APIError where error.code == .notFound {
            throw error.withHint(
                "The URL works for about an hour after it is first fetched; schedule a new backup "
                    + "('markbook backup schedule MATCHING') and download it tomorrow."
            )
        }
    }

    /// Whether the file at `url` starts like a zip.
    static func isZip(fileAt url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        return isZip((try? handle.read(upToCount: 4)) ?? Data())
    }

    /// A zip starts with a local file header, or with the end record when it is empty.
    static func isZip(_ data: Data) -> Bool {
        data.starts(with: [0x50, 0x4B, 0x03, 0x04]) || data.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }

    /// The URL's file name, when it is a plain one; otherwise `markbook-backup.zip`.
    static func defaultName(for url: URL) -> String {
        let name = url.lastPathComponent
        let plain = !name.isEmpty && name != "/" && !name.hasPrefix(".") && !name.contains("\\")
        guard plain else { return "markbook-backup.zip" }
        return name.lowercased().hasSuffix(".zip") ? name : name + ".zip"
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
