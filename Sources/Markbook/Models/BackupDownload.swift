public import Foundation

extension BackupURL {
    /// The file name a backup at `url` is saved under: the URL's last path component when it is a
    /// plain name (with `.zip` added when missing), otherwise `markbook-backup.zip`. The component
    /// is percent-decoded, so a slash, backslash or NUL decoded from it makes it not plain: the
    /// server's name must never lead out of the folder it is saved in.
    public static func fileName(for url: URL) -> String {
        let name = url.lastPathComponent
        let plain =
            !name.isEmpty && !name.hasPrefix(".") && !name.contains(where: { "/\\\u{0}".contains($0) })
        guard plain else { return "markbook-backup.zip" }
        return name.lowercased().hasSuffix(".zip") ? name : name + ".zip"
    }
}

/// A backup saved by ``MarkbookClient/downloadBackup(to:replacing:progress:)``.
public struct BackupDownload: Sendable, Hashable {
    /// Where the zip was saved.
    public var file: URL
    /// Its size in bytes.
    public var byteCount: Int
    /// The backup URL it was downloaded from (it needs no session and expires about an hour after
    /// it was first returned).
    public var url: URL

    /// Creates a result.
    public init(file: URL, byteCount: Int, url: URL) {
        self.file = file
        self.byteCount = byteCount
        self.url = url
    }
}
