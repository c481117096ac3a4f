import Foundation

/// Writes files that may hold secrets (credentials, tokens, a sandbox's saved sign-ins) so that
/// nobody but their owner can ever read them.
package enum PrivateFile {
    /// Writes `data` to `url` whole or not at all, with permissions 0600 from the first byte.
    ///
    /// ``FileWriter`` with ``FileWriter/Permissions/ownerOnly``: the bytes go to a file created
    /// beside `url` with mode 0600, flushed to disk and renamed over the old file, so a crash
    /// leaves the old or the new content whole. A link at `url` is followed.
    ///
    /// - Throws: ``FileWriteError`` naming the path and the reason; the old file is left as it was.
    package static func save(_ data: Data, to url: URL) throws(FileWriteError) {
        try FileWriter.save(data, to: FileDestination(url), permissions: .ownerOnly)
    }

    /// Creates the folder `url`, and any missing folders above it, readable by their owner only
    /// (0700); a folder already there is left as it is.
    ///
    /// - Throws: The file system's error when a folder cannot be created.
    package static func createFolder(_ url: URL) throws {
        try FileManager.default.createDirectory(
            at: url,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
    }
}
