public import Foundation

/// Where a scheduled backup stands, from `getbackupurl`'s status.
///
/// Backups take two days: ``MarkbookClient/scheduleBackup(matching:)`` on day one, the server
/// builds the zip at about 1 AM, and ``MarkbookClient/getBackupURL()`` the next day returns its
/// URL. The zip is deleted about an hour after the URL is first returned.
public enum BackupStatus: Sendable, Hashable {
    /// `OKAY`: the backup is ready and the URL is given.
    case okay
    /// `ERROR:pending`: a backup is scheduled but not built yet; ask again tomorrow.
    case errorPending
    /// `ERROR:no backup`: none is scheduled (or the last one was already deleted).
    case errorNoBackup
    /// Any other `ERROR:…` status, with its text after `ERROR:`.
    case error(String)

    /// Reads a status as the API sends it.
    public init(status: String) {
        switch status {
        case "OKAY": self = .okay
        case "ERROR:pending": self = .errorPending
        case "ERROR:no backup": self = .errorNoBackup
        default:
            self = .error(status.hasPrefix("ERROR:") ? String(status.dropFirst(6)) : status)
        }
    }

    /// The status as the API spells it.
    public var rawStatus: String {
        switch self {
        case .okay: return "OKAY"
        case .errorPending: return "ERROR:pending"
        case .errorNoBackup: return "ERROR:no backup"
        case .error(let reason): return "ERROR:\(reason)"
        }
    }
}

/// What `getbackupurl` answered: the status and, when it is ``BackupStatus/okay``, the URL.
public struct BackupURL: Sendable, Hashable {
    /// Where the backup stands.
    public var status: BackupStatus
    /// The zip's URL; `nil` unless the status is ``BackupStatus/okay``.
    public var url: URL?

    /// Creates a result.
    public init(status: BackupStatus, url: URL?) {
        self.status = status
        self.url = url
    }

    /// Whether the backup can be downloaded now.
    public var isReady: Bool { status == .okay && url != nil }
}
