public import Foundation
public import HTTPCore

extension MarkbookClient {
    /// `getbackupurl`, for a download: the backup's URL when it is ready.
    ///
    /// The URL works for about an hour after it is first returned; download it at once. It is an
    /// address on Markbook's servers that needs no session: send no credentials with it.
    ///
    /// - Throws: ``BackupUnavailable`` when the backup is pending or there is none;
    ///   ``HTTPCore/APIError`` for every other failure.
    public func readyBackupURL() async throws -> URL {
        try await getBackupURL().readyURL()
    }

    /// Downloads the ready backup's zip to `destination`, so that the destination only ever holds
    /// a whole zip.
    ///
    /// Asks for the backup's URL (``readyBackupURL()``), then streams the zip (never held in
    /// memory) to a hidden staging file, without the session and with the client's timeout,
    /// retries and hooks. Only a complete download that starts like a zip is put at the
    /// destination, in one step; anything else is removed and nothing is saved. A device or a
    /// named pipe gets the zip once it is checked, and a symbolic link is followed
    /// (see ``HTTPCore/FileDestination``).
    ///
    /// ```swift
    /// let saved = try await client.downloadBackup(to: URL(fileURLWithPath: "Backups"))
    /// print("\(saved.byteCount) bytes in \(saved.file.path)")
    /// ```
    ///
    /// - Parameters:
    ///   - destination: The file to save, or an existing directory to save it in under the
    ///     server's file name (``BackupURL/fileName(for:)``).
    ///   - replacing: Whether a file already at the destination may be replaced; when `false`, it
    ///     is checked before the URL is fetched and again as the zip is put in place.
    ///   - progress: Called as bytes reach the staging file.
    /// - Returns: Where the zip was saved and its size.
    /// - Throws: ``BackupUnavailable`` when the backup is pending or there is none;
    ///   ``HTTPCore/FileWriteError`` when the destination exists (and `replacing` is `false`) or
    ///   cannot be written; ``HTTPCore/APIError``: `not_found` when the URL has expired,
    ///   `api_error` when the answer is not a zip, and every other failure of the two requests.
    public func downloadBackup(
        to destination: URL,
        replacing: Bool = false,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> BackupDownload {
        guard Self.isDirectory(destination) else {
            // Looked at before the URL is fetched: fetching it starts the hour it stays valid.
            let file = try FileDestination(destination, replacing: replacing)
            return try await downloadBackup(resolving: { _ in file }, progress: progress)
        }
        // The file's name comes with the URL, but a folder that cannot take it is known now.
        guard access(destination.path, W_OK | X_OK) == 0 else {
            throw FileWriteError(path: destination.path, reason: .system(errno: errno))
        }
        return try await downloadBackup(
            resolving: { url in
                try FileDestination(destination.appending(path: BackupURL.fileName(for: url)), replacing: replacing)
            },
            progress: progress
        )
    }

    /// Downloads the ready backup's zip to `destination`, looked at when the caller made it:
    /// ``HTTPCore/FileDestination/standardOutput``, a device, a named pipe or a file, as
    /// ``downloadBackup(to:replacing:progress:)`` does for a path.
    ///
    /// - Throws: As ``downloadBackup(to:replacing:progress:)``.
    public func downloadBackup(
        to destination: FileDestination,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> BackupDownload {
        try await downloadBackup(resolving: { _ in destination }, progress: progress)
    }

    private func downloadBackup(
        resolving destination: (URL) throws -> FileDestination,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> BackupDownload {
        let downloader = try sessionlessClient()
        let url = try await readyBackupURL()
        let target = try destination(url)
        let staging = Self.stagingFile(for: target)
        defer {
            // Nothing is resumed from a staging file, so a failed download leaves none of its files.
            let partial = Client.partialFile(for: staging)
            for file in [staging, partial, partial.appendingPathExtension("validator")] {
                try? FileManager.default.removeItem(at: file)
            }
        }
        let endpoint = Endpoint<Data>(
            .get,
            url.absoluteString,
            operation: OperationMetadata(name: "downloadBackup", service: "markbook", idempotent: true)
        )
        let download: FileDownload
        do {
            // Staged in the shared temporary folder for a stream, where only this user may read it.
            download = try await downloader.download(
                endpoint,
                to: FileDestination(staging),
                resume: false,
                permissions: target.isStream ? .ownerOnly : .standard,
                progress: progress
            )
        } catch let error as APIError where error.code == .notFound {
            var expired = error
            expired.details.hint =
                "The URL works for about an hour after it is first fetched; schedule a new backup and download it tomorrow."
            throw expired
        }
        guard Self.startsLikeZip(staging) else {
            throw APIError.apiError(
                APIError.Details(
                    message:
                        "The backup URL answered with \(download.byteCount) bytes that are not a zip; nothing was saved.",
                    hint: "Check the backup's state (getBackupURL()) and try again."
                )
            )
        }
        try FileWriter.move(staging, to: target)
        return BackupDownload(file: target.target, byteCount: Int(download.byteCount), url: url)
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Where the zip waits until it is checked: beside a file target, so it is renamed into place
    /// on the same file system; in the temporary folder for a device or a pipe.
    private static func stagingFile(for destination: FileDestination) -> URL {
        let folder =
            destination.isStream
            ? FileManager.default.temporaryDirectory : destination.target.deletingLastPathComponent()
        return folder.appending(
            path: ".\(destination.target.lastPathComponent).download-\(UUID().uuidString.prefix(8))"
        )
    }

    /// Whether the file starts like a zip: a local file header, or the end record of an empty one.
    static func startsLikeZip(_ file: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4)) ?? Data()
        return head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }
}
